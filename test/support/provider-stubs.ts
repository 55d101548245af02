/**
 * Loopback HTTP stubs of the OpenAI, Anthropic and Ollama chat APIs, so the
 * real provider clients (ChatOpenAI, ChatAnthropic, ChatOllama) can be tested
 * offline. Each stub answers from a script: an object is returned as the
 * forced tool call's arguments (or as JSON content when the request asked for
 * a JSON format instead of tools); a string is returned as plain text (a
 * model that ignores the tool). Every request body is recorded.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface StubRequest {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

export interface ProviderStub {
  /** Base URL to give the client (`baseURL`, `anthropicApiUrl` or `baseUrl`). */
  readonly url: string;
  readonly requests: StubRequest[];
  /** Resolves once `count` requests have arrived (their bodies read). */
  received(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface StubUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

type Route = (request: StubRequest, answer: unknown, res: ServerResponse) => void;

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function startStub(routes: Record<string, Route>, answers: readonly unknown[]): Promise<ProviderStub> {
  const requests: StubRequest[] = [];
  const waiting: { count: number; resolve: () => void }[] = [];
  const server = createServer((req, res) => {
    readBody(req)
      .then((body) => {
        const path = (req.url ?? "/").split("?")[0] as string;
        const request = { method: req.method ?? "GET", path, body };
        requests.push(request);
        for (const wait of waiting.filter((w) => requests.length >= w.count)) {
          waiting.splice(waiting.indexOf(wait), 1);
          wait.resolve();
        }
        const route = routes[path];
        if (!route) return sendJson(res, 404, { error: { message: `stub has no route ${path}` } });
        const answer = answers[Math.min(requests.filter((r) => routes[r.path]).length - 1, answers.length - 1)];
        if (answer instanceof HttpFailure) {
          res.writeHead(answer.status, { "content-type": "application/json", ...answer.headers });
          res.end(JSON.stringify(answer.body));
          return;
        }
        // A provider that never answers: the request stays open until the stub closes.
        if (answer === NO_ANSWER) return;
        route(request, answer, res);
      })
      .catch((error: unknown) => sendJson(res, 500, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    received: (count) => (requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiting.push({ count, resolve }))),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A scripted HTTP error (a rate limit, a server error) with its JSON body and headers. */
export class HttpFailure {
  constructor(
    readonly status: number,
    readonly body: unknown = { error: { message: `stub status ${status}` } },
    readonly headers: Record<string, string> = {},
  ) {}
}

/** A scripted request that is never answered. */
export const NO_ANSWER = Symbol("no answer");

/** A scripted refusal (OpenAI's `refusal` field). */
export class Refusal {
  constructor(readonly text: string) {}
}

const DEFAULT_USAGE: StubUsage = { inputTokens: 120, outputTokens: 30 };

function forcedOpenAiTool(body: Record<string, unknown>): string | undefined {
  const choice = body.tool_choice as { function?: { name?: string } } | undefined;
  const tools = body.tools as { function?: { name?: string } }[] | undefined;
  return choice?.function?.name ?? tools?.[0]?.function?.name;
}

/** OpenAI Chat Completions (`POST /v1/chat/completions`); give clients `configuration: { baseURL: stub.url + "/v1" }`. */
export function startOpenAiStub(answers: readonly unknown[], usage: StubUsage = DEFAULT_USAGE): Promise<ProviderStub> {
  return startStub(
    {
      "/v1/chat/completions": (request, answer, res) => {
        if (request.body.stream) return sendJson(res, 400, { error: { message: "the stub does not stream" } });
        const tool = forcedOpenAiTool(request.body);
        const asText = typeof answer === "string" || !tool;
        const message =
          answer instanceof Refusal
            ? { role: "assistant", content: null, refusal: answer.text }
            : asText
              ? { role: "assistant", content: typeof answer === "string" ? answer : JSON.stringify(answer) }
              : {
                  role: "assistant",
                  content: null,
                  tool_calls: [{ id: "call_stub", type: "function", function: { name: tool, arguments: JSON.stringify(answer) } }],
                };
        sendJson(res, 200, {
          id: "chatcmpl-stub",
          object: "chat.completion",
          created: 1_700_000_000,
          model: request.body.model,
          choices: [{ index: 0, message, finish_reason: asText ? "stop" : "tool_calls", logprobs: null }],
          usage: {
            prompt_tokens: usage.inputTokens,
            completion_tokens: usage.outputTokens,
            total_tokens: usage.inputTokens + usage.outputTokens,
          },
        });
      },
    },
    answers,
  );
}

/** Anthropic Messages (`POST /v1/messages`); give clients `anthropicApiUrl: stub.url`. */
export function startAnthropicStub(answers: readonly unknown[], usage: StubUsage = DEFAULT_USAGE): Promise<ProviderStub> {
  return startStub(
    {
      "/v1/messages": (request, answer, res) => {
        if (request.body.stream)
          return sendJson(res, 400, { error: { type: "invalid_request_error", message: "the stub does not stream" } });
        const choice = request.body.tool_choice as { name?: string } | undefined;
        const tools = request.body.tools as { name?: string }[] | undefined;
        const tool = choice?.name ?? tools?.[0]?.name;
        const asText = typeof answer === "string" || !tool;
        const content = asText
          ? [{ type: "text", text: typeof answer === "string" ? answer : JSON.stringify(answer) }]
          : [{ type: "tool_use", id: "toolu_stub", name: tool, input: answer }];
        sendJson(res, 200, {
          id: "msg_stub",
          type: "message",
          role: "assistant",
          model: request.body.model,
          content,
          stop_reason: asText ? "end_turn" : "tool_use",
          stop_sequence: null,
          usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens },
        });
      },
    },
    answers,
  );
}

/** Ollama chat (`POST /api/chat`, streamed as NDJSON when asked); give clients `baseUrl: stub.url`. */
export function startOllamaStub(answers: readonly unknown[], usage: StubUsage = DEFAULT_USAGE): Promise<ProviderStub> {
  return startStub(
    {
      "/api/chat": (request, answer, res) => {
        const tools = request.body.tools as { function?: { name?: string } }[] | undefined;
        const tool = tools?.[0]?.function?.name;
        const asText = typeof answer === "string" || !tool;
        const message = asText
          ? { role: "assistant", content: typeof answer === "string" ? answer : JSON.stringify(answer) }
          : { role: "assistant", content: "", tool_calls: [{ function: { name: tool, arguments: answer } }] };
        const body = {
          model: request.body.model,
          created_at: "2026-01-01T00:00:00Z",
          message,
          done: true,
          done_reason: "stop",
          prompt_eval_count: usage.inputTokens,
          eval_count: usage.outputTokens,
        };
        if (request.body.stream === false) return sendJson(res, 200, body);
        res.writeHead(200, { "content-type": "application/x-ndjson" });
        res.end(`${JSON.stringify(body)}\n`);
      },
    },
    answers,
  );
}
