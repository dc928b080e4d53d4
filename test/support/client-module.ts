/**
 * The surface of the generated tasks client that the tests call, for the module they import at
 * run time (its real, stricter types are checked separately by compiling client-usage.ts).
 */
export interface Task {
  id: string;
  title: string;
  status: string;
  [key: string]: unknown;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeout?: number;
  headers?: Record<string, string>;
  retry?: { maxRetries?: number; baseDelay?: number; maxDelay?: number } | false;
  idempotencyKey?: string;
  cache?: boolean;
}

export interface Result<T> {
  status: number;
  headers: Headers;
  data: T;
}

export interface Call<T> extends Promise<T> {
  withResponse(): Promise<Result<T>>;
}

type Method<T> = (params?: Record<string, unknown>, options?: CallOptions) => Call<T>;
type Iterator<T> = (params?: Record<string, unknown>, options?: CallOptions) => AsyncIterableIterator<T>;

export interface TasksClient {
  listProjects: Method<{ items: Array<{ id: string; name: string }> }>;
  listProjectsAll: Iterator<{ id: string; name: string }>;
  listProjectTasks: Method<{ items: Task[]; nextCursor?: string | null }>;
  listProjectTasksAll: Iterator<Task>;
  createTask: Method<Task>;
  createProject: Method<{ id: string; name: string }>;
  getTask: Method<Task>;
  updateTask: Method<Task>;
  deleteTask: Method<undefined>;
  uploadAttachment: Method<{ id: string; fileName: string; size: number; caption?: string }>;
}

export interface ClientOptions extends Omit<CallOptions, 'signal' | 'idempotencyKey' | 'cache' | 'headers'> {
  baseUrl?: string;
  /** Aborts every call of the client. */
  signal?: AbortSignal;
  fetch?: (request: Request) => Promise<Response>;
  headers?: Record<string, string> | (() => Promise<Record<string, string>>);
  auth?: { bearerAuth?: string | (() => string | undefined | Promise<string | undefined>) };
  middleware?: Array<(request: Request, next: (request: Request) => Promise<Response>) => Promise<Response>>;
  /** `etagCache()` of the generated runtime/http-cache.ts. */
  cache?: object;
  /** `responseValidators` of the generated response-validators.ts. */
  validateResponses?: (...args: never[]) => void;
  idempotencyKeys?: 'declared' | 'always' | 'never';
}

export interface ApiErrorLike extends Error {
  operation: string;
  status: number;
  headers: Headers;
  data: { type?: string; title?: string; status?: number; detail?: string; errors?: unknown[] } | undefined;
}

export interface ClientModule {
  createClient(options?: ClientOptions): TasksClient;
  etagCache(): object;
  createHttpClient(options?: ClientOptions): { call(operation: object, params?: Record<string, unknown>, options?: CallOptions): Call<unknown> };
  getTaskOperation: object;
  DEFAULT_BASE_URL: string;
  ApiError: abstract new (...args: never[]) => ApiErrorLike;
  ClientError: abstract new (...args: never[]) => Error & { kind: string; operation: string };
  ApiNetworkError: abstract new (...args: never[]) => Error;
  ApiTimeoutError: abstract new (...args: never[]) => Error & { timeout: number };
  ResponseValidationError: abstract new (...args: never[]) => Error & { errors: Array<{ path: string; message: string }> };
  isApiError(error: unknown, operation?: string): error is ApiErrorLike;
}
