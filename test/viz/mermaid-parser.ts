/**
 * The real Mermaid (the `mermaid` package's browser bundle) in headless
 * Chromium on a blank local page: parses a diagram and reports what the
 * parser built — nodes, edges and subgraphs of a flowchart, tasks of a
 * Gantt chart — and the text of the drawn SVG. Nothing is fetched.
 */
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { openPage } from "./chromium.js";

const BUNDLE = createRequire(import.meta.url).resolve("mermaid/dist/mermaid.min.js");

/** What Mermaid made of a diagram. */
export interface ParsedMermaid {
  readonly ok: boolean;
  readonly error?: string;
  readonly type?: string;
  readonly nodes?: readonly { readonly id: string; readonly text: string }[];
  readonly edges?: readonly (readonly [string, string])[];
  readonly subgraphs?: readonly { readonly id: string; readonly title: string; readonly nodes: readonly string[] }[];
  readonly tasks?: readonly { readonly id: string; readonly task: string }[];
  /** Texts of the drawn labels (trimmed): node labels of a flowchart, task labels of a Gantt chart. */
  readonly drawn?: readonly string[];
  /** True when drawing ran a script or requested anything. */
  readonly pwned?: boolean;
}

export class MermaidParser {
  readonly #page: Page;

  private constructor(page: Page) {
    this.#page = page;
  }

  static async open(browser: Browser): Promise<MermaidParser> {
    const page = await openPage(browser);
    await page.setContent("<!DOCTYPE html><html><head><title>mermaid</title></head><body></body></html>");
    await page.addScriptTag({ path: BUNDLE });
    await page.evaluate(() => {
      (globalThis as unknown as { mermaid: { initialize(c: object): void } }).mermaid.initialize({
        startOnLoad: false,
        securityLevel: "strict",
      });
    });
    return new MermaidParser(page);
  }

  /** Parses `text`, then draws it; `ok` is false with Mermaid's message when it does not parse. */
  parse(text: string): Promise<ParsedMermaid> {
    return this.#page.evaluate(async (source): Promise<ParsedMermaid> => {
      // The page's DOM, typed as far as it is used (tests compile without the DOM library).
      interface Element {
        innerHTML: string;
        textContent: string | null;
        append(child: Element): void;
        remove(): void;
        querySelectorAll(selector: string): Iterable<Element>;
      }
      const document = (globalThis as unknown as { document: { body: Element; createElement(tag: string): Element } }).document;
      // biome-ignore lint/suspicious/noExplicitAny: the bundle's global has no types here.
      const m = (globalThis as any).mermaid;
      try {
        await m.parse(source);
      } catch (error) {
        return { ok: false, error: String((error as Error)?.message ?? error) };
      }
      const diagram = await m.mermaidAPI.getDiagramFromText(source);
      const db = diagram.db;
      const out: { -readonly [K in keyof ParsedMermaid]: ParsedMermaid[K] } = { ok: true, type: diagram.type };
      if (typeof db.getVertices === "function") {
        // biome-ignore lint/suspicious/noExplicitAny: Mermaid's internal records.
        out.nodes = [...db.getVertices().values()].map((v: any) => ({ id: v.id, text: v.text }));
        // biome-ignore lint/suspicious/noExplicitAny: Mermaid's internal records.
        out.edges = db.getEdges().map((e: any) => [e.start, e.end]);
        // biome-ignore lint/suspicious/noExplicitAny: Mermaid's internal records.
        out.subgraphs = db.getSubGraphs().map((s: any) => ({ id: s.id, title: s.title, nodes: s.nodes }));
      }
      if (typeof db.getTasks === "function") {
        // biome-ignore lint/suspicious/noExplicitAny: Mermaid's internal records.
        out.tasks = db.getTasks().map((t: any) => ({ id: t.id, task: t.task }));
      }
      const w = globalThis as unknown as { __renders?: number; __pwned?: unknown };
      w.__renders = (w.__renders ?? 0) + 1;
      const { svg } = await m.render(`diagram${w.__renders}`, source);
      const host = document.createElement("div");
      host.innerHTML = svg;
      document.body.append(host);
      const labels = host.querySelectorAll(".nodeLabel, text.taskText, text.taskTextOutsideRight, text.taskTextOutsideLeft");
      // Gantt task texts end with the space before the task's colon.
      out.drawn = [...labels].map((el) => (el.textContent ?? "").trim());
      host.remove();
      out.pwned = w.__pwned !== undefined;
      return out;
    }, text);
  }
}
