// The values both gRPC benchmarks use, as plain data independent of any protobuf runtime: each
// side builds its own messages from these (protobuf-es `create`, protobufjs `fromObject`,
// @grpc/proto-loader objects), so every implementation encodes the same values.
//
// A "full" task sets every kind of field of acme.tasks.v1.Task: strings, an enum, proto3 `optional`,
// repeated strings, a map, a Timestamp, the oneof (as a Duration), an int64, 256 bytes of bytes and
// five nested comments with their own Timestamps.

const BASE_SECONDS = 1_767_225_600; // 2026-01-01T00:00:00Z

/** 256 bytes, deterministic (not all zero, so nothing can shortcut them). */
function attachment(seed) {
  const bytes = new Uint8Array(256);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return bytes;
}

/**
 * @typedef {object} TaskRecord
 * @property {string} id
 * @property {string} projectId
 * @property {string} title
 * @property {number} status         acme.tasks.v1.TaskStatus number (2 = TASK_STATUS_IN_PROGRESS)
 * @property {string} assigneeId
 * @property {string[]} labels
 * @property {Record<string, string>} attributes
 * @property {{ seconds: bigint, nanos: number }} createTime
 * @property {{ seconds: bigint, nanos: number }} dueWithin   the `due` oneof's Duration member
 * @property {bigint} estimateMinutes
 * @property {Uint8Array} attachment
 * @property {{ authorId: string, text: string, createTime: { seconds: bigint, nanos: number } }[]} comments
 */

/** @returns {TaskRecord} */
export function taskRecord(index = 0) {
  const created = BASE_SECONDS + index * 3600;
  return {
    id: `t${index + 1}`,
    projectId: `project-${(index % 3) + 1}`,
    title: `Write the quarterly report, part ${index + 1}`,
    status: 2,
    assigneeId: `user-${(index % 10) + 1}`,
    labels: ['docs', 'q1', 'finance'],
    attributes: { priority: 'high', team: 'platform', source: 'import' },
    createTime: { seconds: BigInt(created), nanos: 250_000_000 },
    dueWithin: { seconds: 172_800n, nanos: 0 },
    estimateMinutes: 480n + BigInt(index),
    attachment: attachment(index),
    comments: Array.from({ length: 5 }, (_, c) => ({
      authorId: `user-${((index + c) % 10) + 1}`,
      text: `Comment ${c + 1} on task ${index + 1}: numbers for the second section are in.`,
      createTime: { seconds: BigInt(created + (c + 1) * 60), nanos: c * 1000 },
    })),
  };
}

/** The same record with int64 values as decimal strings: what JSON-minded runtimes accept. */
export function taskRecordLoose(record) {
  const time = (value) => ({ seconds: String(value.seconds), nanos: value.nanos });
  return {
    ...record,
    createTime: time(record.createTime),
    dueWithin: time(record.dueWithin),
    estimateMinutes: String(record.estimateMinutes),
    comments: record.comments.map((comment) => ({ ...comment, createTime: time(comment.createTime) })),
  };
}

export const SMALL_REQUEST = { id: 't42' };
export const LIST_LENGTH = 100;

/** ListTasks in the server benchmark: the first `pageSize` tasks of a project, streamed one by one. */
export const LIST_REQUEST = { projectId: 'project-1', pageSize: 10 };

/** Indexes (into the 100 tasks) of what ListTasks streams for `request`, the same on every server. */
export function listedIndexes({ projectId, pageSize }) {
  const indexes = [];
  for (let index = 0; index < LIST_LENGTH && indexes.length < (pageSize || 50); index++)
    if (taskRecord(index).projectId === projectId) indexes.push(index);
  return indexes;
}
