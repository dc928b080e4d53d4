/** Types of conformance-runtime.js (plain JavaScript, as test/provision.js imports it before the build). */
export declare const CONFORMANCE_PACKAGE: string;
export declare const CONFORMANCE_INCLUDE: string;
export declare function conformanceRunnerCommand(): string[];
export declare function provisionConformanceRuntime(): void;
