/** @internal `README.md` of a scaffolded deployment. */
export function readmeTemplate(name: string, graphId: string): string {
  const fence = "```";
  return `# ${name}

A goal-driven agent built with [langgoap](https://www.npmjs.com/package/langgoap),
served with the LangGraph API server. A client sends a goal; the planner finds
the cheapest sequence of your actions that reaches it, the graph executes it,
replans when an action fails, and pauses for a human where an action asks for
approval.

- \`src/actions.ts\` — your actions (preconditions, effects, cost, code). The
  starter domain researches, drafts (a fast writer that can be down, a premium
  one), publishes and mails a newsletter after a human approves. Replace it.
- \`src/graph.ts\` — the served graph: input \`{ goal, worldState }\`, output
  \`{ status, worldState, plan, executionHistory }\`.
- \`langgraph.json\` — registers the graph as \`${graphId}\`.
- \`src/server.ts\` — a self-hosted server on PostgreSQL (see below).

## Develop

${fence}sh
npm install
npm run dev        # LangGraph API server on http://localhost:2024, with Studio
${fence}

Start a run from Studio or any LangGraph SDK client:

${fence}ts
import { Client } from "@langchain/langgraph-sdk";

const client = new Client({ apiUrl: "http://localhost:2024" });
const thread = await client.threads.create();
const result = await client.runs.wait(thread.thread_id, "${graphId}", {
  input: { goal: { published: true }, worldState: { topic: "GOAP" } },
});
// result.status === "goal_achieved"

// A second run on the same thread starts fresh (its own plan, counters and
// history) from the given world; an action with requireHumanApproval pauses it:
const paused = await client.runs.wait(thread.thread_id, "${graphId}", {
  input: { goal: { newsletter_sent: true }, worldState: { topic: "GOAP" } },
});
// paused.status === "awaiting_human"; (await client.threads.getState(thread.thread_id)).values.awaitingHuman
// names the action: { action: "send_newsletter", kind: "goap_action_approval" }
await client.runs.wait(thread.thread_id, "${graphId}", { command: { resume: true } }); // or false to refuse
${fence}

A thread is a conversation of runs: each input after a run has ended starts a
new run; a given \`worldState\` replaces the thread's world, and without one
the run starts from the world the last run left. A new input on a thread that
waits for a human is refused (\`THREAD_PAUSED\`): resume it first. Stream a run
with \`client.runs.stream(threadId, "${graphId}", { input, streamMode: "updates" })\`
to see each planner, executor and observer step. Each finished run is
recorded (one record per run) in the server's store under \`["langgoap", "executions", ...]\`
(\`client.store.searchItems(["langgoap", "executions"], { filter: { threadId } })\`).

The dev server keeps everything in memory (saved to \`.langgraph_api/\` between
restarts): one process, for development.

## Self-host on PostgreSQL

${fence}sh
DATABASE_URL=postgresql://user:pass@host:5432/db PORT=8123 npm start
${fence}

\`src/server.ts\` serves LangGraph's thread and run routes
(\`createEmbedServer\` from \`@langchain/langgraph-api/experimental/embed\`)
with a \`PostgresSaver\` and a \`PostgresStore\`. Every process started with the
same \`DATABASE_URL\` shares threads, checkpoints and execution history: run
several behind a load balancer, and a run paused on one process is resumed on
any other. Clients use the same SDK calls, streaming runs
(\`client.runs.stream\`); the embedded server has no assistants,
\`runs.wait\` or store routes, and the graph id is the assistant id.
The embed API is marked experimental by LangGraph.

Each process also runs a share of the run fleet (\`FleetWorker\` from
\`langgoap/node\`): a run enqueued with \`POST /fleet/runs\` (\`{ "goal": {
"published": true }, "worldState": { "topic": "GOAP" } }\`, answered with its
\`runId\`) is executed by whichever process claims it first, under a lease it
renews; when a process dies, another takes its runs over once the lease
expires (30 s by default), and steps that finished are never run again.
\`GET /fleet/runs/<runId>\` reads the run back (\`state: "done"\`,
\`runStatus: "goal_achieved"\`). \`FLEET_CONCURRENCY\` sets how many runs a
process executes at once (default 4).

## LangSmith Deployment

\`langgraph.json\` also builds the managed server image
(\`npx @langchain/langgraph-cli build -t ${name}\`, or \`up\`), which brings
its own PostgreSQL and Redis; it needs a LangSmith API key or a license key.
`;
}
