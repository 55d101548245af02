/**
 * What a chat client does with the served chat agent (`langgoap_chat`):
 * two turns on one thread through `@langchain/langgraph-sdk`, streamed with
 * `streamMode: "messages"`, the second pausing at an approval (a message
 * sent meanwhile is refused) and resumed.
 */
import type { Client } from "@langchain/langgraph-sdk";
import { expect } from "vitest";

/** A message as the server streams it (LangChain's serialized message fields). */
interface StreamedMessage {
  readonly id?: string;
  readonly type: string;
  readonly content: unknown;
  readonly additional_kwargs?: { goap?: { status: string; plan: string[]; executed: { action: string }[] } };
}

/**
 * Streams one run in "messages" mode and returns the AI messages the run
 * produced (the last version of each, by id) and every event name. The
 * server first replays the thread's messages as `messages/complete`, so
 * messages the thread held before the run are left out.
 */
async function streamMessages(
  client: Client,
  threadId: string,
  graphId: string,
  payload: { input?: unknown; command?: { resume: unknown } },
): Promise<{ events: string[]; ai: StreamedMessage[]; errors: unknown[] }> {
  const before = (await client.threads.getState(threadId)).values as { messages?: StreamedMessage[] } | null;
  const known = new Set((before?.messages ?? []).map((m) => String(m.id)));
  const events: string[] = [];
  const errors: unknown[] = [];
  const byId = new Map<string, StreamedMessage>();
  for await (const part of client.runs.stream(threadId, graphId, { ...payload, streamMode: "messages" } as never)) {
    const { event, data } = part as { event: string; data: unknown };
    events.push(event);
    if (event === "error") errors.push(data);
    if (event !== "messages/partial" && event !== "messages/complete") continue;
    for (const message of data as StreamedMessage[]) {
      if ((message.type === "ai" || message.type === "AIMessageChunk") && !known.has(String(message.id)))
        byId.set(String(message.id), message);
    }
  }
  return { events, ai: [...byId.values()], errors };
}

/**
 * Turn 1 publishes (the AI reply streams as message events), turn 2 on the
 * same thread sends the newsletter from the world turn 1 left (only
 * `send_newsletter` is planned), pauses at its approval, and the resumed
 * run streams the reply.
 */
export async function checkChatTurns(client: Client, graphId: string): Promise<void> {
  // Declared schemas (parsing the sources instead took over 30 s, past the test's time limit, and named no properties so).
  const schemas = (await client.assistants.getSchemas(graphId)) as { input_schema: { properties: Record<string, unknown> } };
  expect(Object.keys(schemas.input_schema.properties)).toEqual(["messages", "worldState"]);
  const thread = await client.threads.create();
  const say = (content: string) => ({ input: { messages: [{ role: "user", content }] } });

  const first = await streamMessages(client, thread.thread_id, graphId, say("Publish a post about GOAP"));
  expect(first.errors).toEqual([]);
  expect(first.events).toContain("messages/complete");
  expect(first.ai).toHaveLength(1);
  expect(String(first.ai[0]?.content)).toMatch(/^Done: published = true\.\nPlan: research -> write_fast -> publish \(cost 3\)\./);
  expect(first.ai[0]?.additional_kwargs?.goap).toMatchObject({ status: "goal_achieved", plan: ["research", "write_fast", "publish"] });

  const second = await streamMessages(client, thread.thread_id, graphId, say("now send the newsletter"));
  expect(second.ai).toEqual([]);
  const paused = await client.threads.getState(thread.thread_id);
  expect(paused.next).toEqual(["act"]);
  const interrupts = paused.tasks.flatMap((t) => t.interrupts ?? []) as { value?: { type?: string; action?: string } }[];
  expect(interrupts.map((i) => i.value)).toMatchObject([{ type: "goap_action_approval", action: "send_newsletter" }]);

  // A new message while the approval waits is refused, and the paused turn still resumes.
  const interrupting = await streamMessages(client, thread.thread_id, graphId, say("just research"));
  expect(JSON.stringify(interrupting.errors)).toContain('waits for approval of \\"send_newsletter\\"');
  expect(interrupting.ai).toEqual([]);

  const resumed = await streamMessages(client, thread.thread_id, graphId, { command: { resume: true } });
  expect(resumed.errors).toEqual([]);
  expect(resumed.ai).toHaveLength(1);
  expect(resumed.ai[0]?.additional_kwargs?.goap).toMatchObject({ status: "goal_achieved", plan: ["send_newsletter"] });
  expect(String(resumed.ai[0]?.content)).toMatch(/^Done: newsletter_sent = true\./);

  const final = (await client.threads.getState(thread.thread_id)).values as {
    messages: { type: string }[];
    worldState: Record<string, unknown>;
  };
  expect(final.messages.map((m) => m.type)).toEqual(["human", "ai", "human", "ai"]);
  expect(final.worldState).toMatchObject({ topic: "GOAP", published: true, newsletter_sent: true });
}
