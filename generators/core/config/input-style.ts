/**
 * The input styles codegen reads. Its own module because the config, the detection of a file's
 * style and the per-style option declarations all name them, and the config imports the other two.
 */
export const STYLES = ['openapi', 'graphql', 'proto', 'asyncapi'] as const;
export type InputStyle = (typeof STYLES)[number];
