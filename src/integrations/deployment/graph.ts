/**
 * Deployment entry for the LangGraph API server: `langgraph.json` points its
 * `graphs` entry here (`./src/integrations/deployment/graph.ts:graph`).
 * Start a run with `{ "goal": { "published": true }, "worldState": { "topic": "..." } }`,
 * later inputs on the thread start new runs; the server supplies the checkpointer.
 */
import type { ServedGoapGraph } from "../../graph/index.js";
import { createDeploymentGraph } from "./create-deployment-graph.js";

/** The graph the LangGraph API server loads. */
export const graph: ServedGoapGraph = createDeploymentGraph();
