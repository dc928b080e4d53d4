// The handlers of Tasks Realtime API: yours to edit. codegen wrote this file once; when a message is
// added to the manifest it adds a stub for it here, and never changes anything else.
// Serve them with `createRealtimeServer(handlers, options)` from the same module.
import { randomUUID } from 'node:crypto';
import type { RealtimeHandlers, RealtimePublish } from '../../out/realtime/server.js';
import type { ChatLine, Task, TaskStatus } from '../../out/realtime/types.js';

/** Who is connected: from the chat's first message, or from an SSE bearer token. */
export interface Viewer {
  name: string;
}

const STATUSES: readonly TaskStatus[] = ['todo', 'in_progress', 'done'];

/** The task feed's tasks, in memory; every change is published on `GET /v1/tasks/events`. */
export class TaskBoard {
  private readonly tasks = new Map<string, Task>();

  isEmpty(): boolean {
    return this.tasks.size === 0;
  }

  get(id: string): Task | undefined {
    return this.tasks.get(id);
  }

  async create(publish: RealtimePublish, title: string): Promise<Task> {
    const task: Task = { id: randomUUID(), title, status: 'todo', createdAt: new Date().toISOString() };
    this.tasks.set(task.id, task);
    await publish.tasks('task.created', { task });
    return task;
  }

  /** Moves the oldest unfinished task one status on; a finished task is deleted. */
  async advance(publish: RealtimePublish): Promise<void> {
    const task = [...this.tasks.values()][0];
    if (!task) return;
    const next = STATUSES[STATUSES.indexOf(task.status) + 1];
    if (next === undefined) {
      this.tasks.delete(task.id);
      await publish.tasks('task.deleted', { id: task.id });
      return;
    }
    const updated: Task = { ...task, status: next, updatedAt: new Date().toISOString() };
    // Re-inserted at the end, so the next tick advances another task.
    this.tasks.delete(task.id);
    this.tasks.set(task.id, updated);
    await publish.tasks('task.updated', { task: updated });
  }
}

export const board = new TaskBoard();

/** Sockets that joined a room subscribe to this topic; what is said there is published to it. */
function roomTopic(room: string): string {
  return `rooms/${room}`;
}

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

export const handlers: RealtimeHandlers<Viewer> = {
  /** WebSocket /v1/chat: one handler per message a client sends. */
  chat: {
    /** Joins the chat room of a task. */
    async join(message, connection, publish) {
      await connection.subscribe(roomTopic(message.room));
      await publish.chat({ type: 'joined', room: message.room, user: connection.context.name }, roomTopic(message.room));
    },
    /**
     * Says something in a room; answered by an ack with the same id.
     * `/task <title>` also creates a task, which the task feed announces.
     */
    async say(message, connection, publish) {
      const line: ChatLine = {
        type: 'said',
        messageId: randomUUID(),
        room: message.room,
        user: connection.context.name,
        text: message.text,
        sentAt: new Date().toISOString(),
      };
      await publish.chat(line, roomTopic(message.room));
      const command = /^\/task\s+(.+)$/.exec(message.text);
      if (command) await board.create(publish, command[1]!.trim().slice(0, 200));
      return { type: 'ack', id: message.id, messageId: line.messageId };
    },
  },
  /** `POST /v1/tasks/{taskId}/summary`: send the stream's events with `stream.send(event, data)`. */
  async taskSummary({ params, body, stream, signal }) {
    const task = board.get(params.taskId);
    const text = task
      ? `"${task.title}" is ${task.status.replace('_', ' ')}, created ${task.createdAt}${body.style === 'detailed' && task.updatedAt ? `, last changed ${task.updatedAt}` : ''}.`
      : `There is no task ${params.taskId} (yet).`;
    const words = text.split(' ').slice(0, body.maxWords ?? 1000);
    for (const [index, word] of words.entries()) {
      if (signal.aborted) return;
      stream.send('chunk', { text: index === 0 ? word : ` ${word}` });
      await sleep(10);
    }
  },
};
