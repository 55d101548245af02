/**
 * examples/hungry-agent.ts in its "model configured" mode: OPENAI_API_KEY is
 * set and the OpenAI client is pointed (OPENAI_BASE_URL) at a loopback stub,
 * so the example's GoalInterpreter path runs end to end without a network.
 */
import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BundledScript, bundleScript } from "../support/bundled-script.js";
import { type ProviderStub, type StubRequest, startOpenAiStub } from "../support/provider-stubs.js";

const run = promisify(execFile);
const REPO = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
let stub: ProviderStub;
// The example bundled once and run by plain node: through tsx the process first spent seconds compiling the sources.
let example: BundledScript | undefined;

beforeAll(async () => {
  example = await bundleScript("examples/hungry-agent.ts");
  stub = await startOpenAiStub([
    { conditions: { is_hungry: false } },
    { conditions: { is_hungry: false } },
    { conditions: { is_hungry: false, is_tired: false } },
    { conditions: { has_wood: true } },
  ]);
});
afterAll(async () => {
  example?.remove();
  await stub.close();
});

describe("examples/hungry-agent.ts with a chat model", () => {
  it("interprets each request with the model and checks its outcome", async () => {
    const { ANTHROPIC_API_KEY: _a, OLLAMA_BASE_URL: _o, ...inherited } = process.env;
    const env = { ...inherited, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${stub.url}/v1`, OPENAI_MODEL: "gpt-4o-mini" };
    const { stdout } = await run(process.execPath, [(example as BundledScript).file], { cwd: REPO, env });
    expect(stdout).toContain("Interpreter: OpenAI gpt-4o-mini (GoalInterpreter, function calling).");
    expect(stdout).not.toContain("KeywordGoalInterpreter (deterministic");
    expect(stdout).toContain("All requests became the expected goals");
    expect(stub.requests).toHaveLength(4);
    const third = stub.requests[2] as StubRequest;
    expect(third.body.tool_choice).toEqual({ type: "function", function: { name: "goal" } });
    const messages = third.body.messages as { role: string; content: string }[];
    expect(messages.at(-1)).toEqual({ role: "user", content: "I'm tired and hungry" });
    expect(messages[0]?.content).toContain("- near_market (boolean): the villager stands at the market; also called shop");
  }, 60_000);
});
