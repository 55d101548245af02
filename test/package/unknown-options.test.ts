/**
 * No option is silently ignored: every public options object refuses a key
 * its receiver does not know with a coded `UNKNOWN_OPTION` error naming the
 * key (and, for a key that belongs elsewhere, where; for a typo, the option
 * meant). A table calls each receiver with a bogus key; a scan of the
 * barrels' exported `*Options` / `*Config` names fails when a new one is
 * neither in the table nor exempted with a reason.
 */
import { readFileSync } from "node:fs";
import { Annotation, InMemoryStore, MemorySaver, StateGraph } from "@langchain/langgraph";
import { describe, expect, it } from "vitest";
import { checkOptionKeys } from "../../src/core/option-keys.js";
import {
  ActionNode,
  ActionQos,
  ActionSpec,
  AnytimePlanningStrategy,
  AStarStrategy,
  addGoapSubgraph,
  BehaviourTree,
  buildDependencyGraph,
  ConditionNode,
  Consideration,
  ConstraintSpec,
  Cooldown,
  CostAccumulator,
  CSPRefinementStrategy,
  callWithin,
  compileServedGraph,
  createGoapAgent,
  createGoapChatAgent,
  createGoapSubagent,
  createGoapTool,
  createSolver,
  DivergencePolicy,
  defineDomain,
  deserializePlan,
  ExternalAgentsTransitionModel,
  enumeratePlans,
  escapeControlChars,
  evaluatePlan,
  explainInfeasibility,
  extractFeatures,
  GoalInterpreter,
  GoalPolicy,
  GoalSpec,
  GoapAgent,
  GoapExecutor,
  GoapGraph,
  GoapObserver,
  GoapPlanner,
  goapifyTool,
  HighsSolver,
  Inverter,
  inferStartState,
  JsLpSolver,
  KeywordGoalInterpreter,
  LangChainEventTracer,
  LangSmithTracer,
  LazyDecompositionStrategy,
  LoggingTracer,
  loadDomain,
  loadPddl,
  MCTSStrategy,
  MilpModelBuilder,
  MultiGoal,
  MultiTracer,
  makespanMetric,
  NirvanaGoal,
  OpenTelemetryTracer,
  optimizePlans,
  Parallel,
  PlanCache,
  PlanNode,
  PromptConditionResolver,
  paretoPlans,
  pipelinePlan,
  plan,
  planLengthMetric,
  planToJson,
  planTotal,
  promptDataBlock,
  ReflexionTracer,
  RepairStrategy,
  Repeat,
  ReportRecorder,
  ResponseCurve,
  RuleBasedClassifier,
  refinePlan,
  renderAscii,
  renderAsciiGantt,
  renderDot,
  renderGanttPng,
  renderHtmlReport,
  renderMermaid,
  renderMermaidGantt,
  renderPlanPng,
  renderSearchTree,
  repairPlan,
  resolveConditions,
  riskMetric,
  runGuards,
  runSensors,
  SafeTracer,
  Selector,
  Sequence,
  SoftGoal,
  SqliteStore,
  StochasticTransitionModel,
  StoreExecutionHistory,
  StoreThreadSaver,
  StrategyRouter,
  StupSelector,
  scaffoldDeployment,
  schedulePlan,
  settleWithin,
  solveLexicographic,
  stupGoalSelector,
  svgToPng,
  Timeout,
  TwoPhasePipelineStrategy,
  totalCostMetric,
  UniformRandomAgentModel,
  UtilityAction,
  UtilityBrain,
  UtilitySelector,
  UtilityStrategy,
  validatePlan,
  visualize,
} from "../../src/index.js";
import { createInspector } from "../../src/inspect/index.js";
import { FleetWorker, loadDomainFile, openFleetPool, RunQueue } from "../../src/node/index.js";
import { FakeStructuredChatModel } from "../../src/testing/index.js";
import { PlannerPool } from "../../src/workers/index.js";

const ROOT = new URL("../..", import.meta.url).pathname;
// biome-ignore lint/suspicious/noExplicitAny: every receiver is called with a key its type refuses
const BOGUS: any = { bogusOption: 1 };
const actions = [new ActionSpec({ name: "chop", effects: { wood: 1 } })];
const found = plan({}, { wood: 1 }, actions);
if (!found) throw new Error("the fixture must plan");
const llm = () => new FakeStructuredChatModel({ responses: [{ conditions: { wood: 1 } }] });
const node = () => new ActionNode({ name: "a", run: () => "success" } as never);
const utilityAction = () => new UtilityAction({ name: "u", considerations: [new Consideration({ input: () => 1, curve: {} })] });
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

/** Each public options object: its type name, and a call of its receiver with a bogus key. */
const RECEIVERS: readonly (readonly [string, () => unknown])[] = [
  // core
  ["ActionSpecOptions", () => new ActionSpec({ name: "a", ...BOGUS })],
  ["ActionQosOptions", () => new ActionQos(BOGUS)],
  ["GoalPolicyOptions", () => new GoalPolicy(BOGUS)],
  ["ConstraintSpecOptions", () => new ConstraintSpec({ key: "usd", max: 1, ...BOGUS })],
  ["SoftGoalOptions", () => new SoftGoal({ conditions: {}, ...BOGUS })],
  ["GoalSpecOptions", () => new GoalSpec(BOGUS)],
  ["MultiGoalOptions", () => new MultiGoal({ goals: [{ a: true }], ...BOGUS })],
  ["PerEntityOptions", () => MultiGoal.perEntity(["a"], { "done_{entity}": true }, "sequential", BOGUS)],
  ["DeadlineOptions", () => settleWithin(Promise.resolve(1), { ms: 1, ...BOGUS })],
  ["CallWithinOptions", () => callWithin(() => 1, { ms: 1, ...BOGUS })],
  ["DisplayTextOptions", () => escapeControlChars("x", BOGUS)],
  ["LoadDomainOptions", () => loadDomain({ actions: [{ name: "a", effects: { b: true } }] }, BOGUS)],
  ["PromptDataOptions", () => promptDataBlock("tag", 1, BOGUS)],
  // planner
  ["PlanOptions", () => plan({}, { wood: 1 }, actions, BOGUS)],
  ["AStarStrategyOptions", () => new AStarStrategy(BOGUS)],
  ["AnytimePlanningStrategyOptions", () => new AnytimePlanningStrategy(BOGUS)],
  ["LazyDecompositionStrategyOptions", () => new LazyDecompositionStrategy(BOGUS)],
  ["RepairStrategyOptions", () => new RepairStrategy(BOGUS)],
  ["RepairOptions", () => repairPlan(found, {}, new GoalSpec({ conditions: { wood: 1 } }), actions, BOGUS)],
  ["NirvanaGoalOptions", () => new NirvanaGoal(BOGUS)],
  ["UtilityStrategyOptions", () => new UtilityStrategy(BOGUS)],
  ["StrategyRouterOptions", () => new StrategyRouter({ strategies: { astar: new AStarStrategy() }, ...BOGUS })],
  ["RuleBasedClassifierOptions", () => new RuleBasedClassifier(BOGUS)],
  ["MCTSStrategyOptions", () => new MCTSStrategy(BOGUS)],
  ["DivergencePolicyOptions", () => new DivergencePolicy(BOGUS)],
  ["StochasticTransitionModelOptions", () => new StochasticTransitionModel(BOGUS)],
  ["ExternalAgentsTransitionModelOptions", () => new ExternalAgentsTransitionModel(BOGUS)],
  ["UniformRandomAgentModelOptions", () => new UniformRandomAgentModel(BOGUS)],
  ["ExtractFeaturesOptions", () => extractFeatures({}, { wood: 1 }, actions, BOGUS)],
  ["InferStartStateOptions", () => inferStartState(actions, BOGUS)],
  ["DeserializePlanOptions", () => deserializePlan({}, actions, BOGUS)],
  // graph
  ["GoapGraphOptions", () => new GoapGraph(actions, BOGUS)],
  ["GoapCompileOptions", () => new GoapGraph(actions).compile(BOGUS)],
  ["LangGraphRunnableConfig", () => new GoapGraph(actions).invoke({ wood: 1 }, {}, { configurable: {}, thread_id: "t" } as never)],
  ["GoapStreamOptions", () => new GoapGraph(actions).stream({ wood: 1 }, {}, { streamMod: "values" } as never)],
  ["InvokeNlOptions", () => new GoapGraph(actions).invokeNl("x", {}, { llm: llm(), ...BOGUS })],
  ["RecoverOptions", () => new GoapGraph(actions).recover({ configurable: { thread_id: "t" } }, BOGUS)],
  ["GoapPlannerOptions", () => new GoapPlanner(actions, BOGUS)],
  ["GoapExecutorOptions", () => new GoapExecutor(actions, BOGUS)],
  ["GoapObserverOptions", () => new GoapObserver(actions, BOGUS)],
  ["RunGuardsOptions", () => runGuards([], actions[0] as ActionSpec, {}, BOGUS)],
  ["RunSensorsOptions", () => runSensors([], {}, BOGUS)],
  ["ResolveConditionsOptions", () => resolveConditions([], [], {}, BOGUS)],
  ["ServedGraphOptions", () => compileServedGraph(new GoapGraph(actions), BOGUS)],
  ["SqliteStoreOptions", () => new SqliteStore({} as never, BOGUS)],
  ["StoreExecutionHistoryOptions", () => new StoreExecutionHistory(new InMemoryStore(), BOGUS)],
  ["HistoryPageOptions", () => new StoreExecutionHistory(new InMemoryStore()).readRunHistory("r", BOGUS)],
  ["DefineDomainOptions", () => defineDomain({ facts: { a: "boolean" }, ...BOGUS })],
  ["TypedMultiGoalOptions", () => defineDomain({ facts: { a: "boolean" } }).multiGoal({ goals: [{ a: true }], ...BOGUS })],
  // optimize
  ["TwoPhasePipelineOptions", () => new TwoPhasePipelineStrategy(BOGUS)],
  ["CSPRefinementOptions", () => new CSPRefinementStrategy(BOGUS)],
  ["PipelineOptions", () => pipelinePlan({}, { wood: 1 }, actions, BOGUS)],
  ["EnumerateOptions", () => enumeratePlans({}, { wood: 1 }, actions, BOGUS)],
  ["ExplainOptions", () => explainInfeasibility(found, { wood: 1 }, BOGUS)],
  ["LexicographicOptions", () => solveLexicographic(new MilpModelBuilder().build(), [], createSolver(), BOGUS)],
  ["EvaluateOptions", () => evaluatePlan(found, new GoalSpec(), BOGUS)],
  ["EvaluateOptions (validatePlan)", () => validatePlan(found, { wood: 1 }, BOGUS)],
  ["DependencyOptions", () => buildDependencyGraph(found, BOGUS)],
  ["HighsSolverOptions", () => new HighsSolver(BOGUS)],
  ["MilpSolveOptions", () => new JsLpSolver().solve(new MilpModelBuilder().build(), BOGUS)],
  ["JsLpSolverOptions", () => new JsLpSolver(BOGUS)],
  ["CreateSolverOptions", () => createSolver("highs", BOGUS)],
  ["MetricOptions", () => planLengthMetric(BOGUS)],
  ["MetricOptions (totalCost)", () => totalCostMetric(BOGUS)],
  ["MetricOptions (makespan)", () => makespanMetric(BOGUS)],
  ["RiskMetricOptions", () => riskMetric(new StochasticTransitionModel({ outcomes: {} } as never), BOGUS)],
  ["VariableOptions", () => new MilpModelBuilder().addVariable("x", BOGUS)],
  ["ParetoOptions", () => paretoPlans([found], { wood: 1 }, BOGUS)],
  ["RefineOptions", () => refinePlan(found, { wood: 1 }, BOGUS)],
  ["ScheduleOptions", () => schedulePlan(found, BOGUS)],
  ["OptimizeOptions", () => optimizePlans([found], { wood: 1 }, BOGUS)],
  ["PlanTotalOptions", () => planTotal(found, "usd", BOGUS)],
  // utility
  ["GoapAgentOptions", () => new GoapAgent({ actions, ...BOGUS })],
  ["UtilityBrainOptions", () => new UtilityBrain(BOGUS)],
  ["ConsiderationOptions", () => new Consideration({ curve: {}, ...BOGUS })],
  ["ResponseCurveOptions", () => new ResponseCurve(BOGUS)],
  ["PlanCacheOptions", () => new PlanCache(BOGUS)],
  ["StupSelectorOptions", () => new StupSelector({ actions, goals: [{ name: "g", goal: { wood: 1 }, score: 1 }], ...BOGUS })],
  ["StupGoalOptions", () => new StupSelector({ actions, goals: [{ name: "g", goal: { wood: 1 }, score: 1, ...BOGUS }] })],
  [
    "StupGoalSelectorOptions",
    () => stupGoalSelector(new StupSelector({ actions, goals: [{ name: "g", goal: { wood: 1 }, score: 1 }] }), BOGUS),
  ],
  ["UtilityActionOptions", () => new UtilityAction({ name: "u", ...BOGUS })],
  ["ScoreOptions", () => utilityAction().score({}, BOGUS)],
  ["ScoreOptions (explain)", () => utilityAction().explain({}, BOGUS)],
  ["ActionNodeOptions", () => new ActionNode({ name: "a", ...BOGUS })],
  ["ConditionNodeOptions", () => new ConditionNode({ conditions: {}, ...BOGUS })],
  ["CooldownOptions", () => new Cooldown({ child: node(), duration: { ticks: 1 }, ...BOGUS } as never)],
  ["DecoratorOptions", () => new Inverter({ child: node(), ...BOGUS })],
  ["ParallelOptions", () => new Parallel({ children: [node()], ...BOGUS } as never)],
  ["PlanNodeOptions", () => new PlanNode({ ...BOGUS } as never)],
  ["RepeatOptions", () => new Repeat({ child: node(), ...BOGUS } as never)],
  ["TimeoutOptions", () => new Timeout({ child: node(), ...BOGUS } as never)],
  ["CompositeOptions", () => new Sequence({ children: [node()], ...BOGUS })],
  ["CompositeOptions (selector)", () => new Selector({ children: [node()], ...BOGUS })],
  ["BehaviourTreeOptions", () => new BehaviourTree({ root: node(), ...BOGUS } as never)],
  ["UtilitySelectorOptions", () => new UtilitySelector({ children: [], ...BOGUS } as never)],
  // tracing
  ["CostAccumulatorOptions", () => new CostAccumulator({}, BOGUS)],
  ["LangChainEventTracerOptions", () => new LangChainEventTracer(BOGUS)],
  ["LangSmithTracerOptions", () => new LangSmithTracer(BOGUS)],
  ["LoggingTracerOptions", () => new LoggingTracer(BOGUS)],
  ["MultiTracerOptions", () => new MultiTracer([], BOGUS)],
  ["OpenTelemetryTracerOptions", () => new OpenTelemetryTracer(BOGUS)],
  ["ReflexionTracerOptions", () => new ReflexionTracer(BOGUS)],
  ["SafeTracerOptions", () => new SafeTracer({}, BOGUS)],
  // nl
  ["GoalInterpreterOptions", () => new GoalInterpreter(llm(), actions, BOGUS)],
  ["KeywordGoalInterpreterOptions", () => new KeywordGoalInterpreter(actions, BOGUS)],
  ["PromptConditionResolverOptions", () => new PromptConditionResolver(llm(), BOGUS)],
  ["ProviderRetryOptions", () => new GoalInterpreter(llm(), actions, { retry: BOGUS })],
  ["StructuredOutputOptions", () => new GoalInterpreter(llm(), actions, { structuredOutput: BOGUS })],
  // viz
  ["AsciiGanttOptions", () => renderAsciiGantt(found, BOGUS)],
  ["RenderOptions", () => renderAscii(found, BOGUS)],
  ["RenderOptions (dot)", () => renderDot(found, BOGUS)],
  ["RenderOptions (mermaid)", () => renderMermaid(found, BOGUS)],
  ["PngOptions", () => renderGanttPng(found, BOGUS)],
  ["PlanPngOptions", () => renderPlanPng(found, BOGUS)],
  ["PngOptions (svgToPng)", () => svgToPng("<svg></svg>", BOGUS)],
  ["schedule options (planToJson)", () => planToJson(found, BOGUS)],
  ["schedule options (renderMermaidGantt)", () => renderMermaidGantt(found, BOGUS)],
  ["SearchTreeOptions", () => renderSearchTree([], BOGUS)],
  ["VisualizeOptions", () => visualize(found, BOGUS)],
  ["ReportRecorderOptions", () => new ReportRecorder(BOGUS)],
  ["HtmlReportOptions", () => renderHtmlReport({ title: "t", plan: found }, BOGUS)],
  // integrations
  ["CreateGoapChatAgentOptions", () => createGoapChatAgent({ actions, llm: llm(), ...BOGUS })],
  ["CreateGoapToolOptions", () => createGoapTool(actions, { llm: llm(), ...BOGUS })],
  ["CreateGoapAgentOptions", () => createGoapAgent(actions, { wood: 1 }, BOGUS)],
  ["GoapSubagentOptions", () => createGoapSubagent(actions, { llm: llm(), ...BOGUS })],
  [
    "AddGoapSubgraphOptions",
    () =>
      addGoapSubgraph(new StateGraph(Annotation.Root({ x: Annotation<number> })), "goap", {
        actions,
        goal: { wood: 1 },
        ...BOGUS,
      } as never),
  ],
  ["GoapifyToolOptions", () => goapifyTool({ name: "t", invoke: async () => "" } as never, BOGUS)],
  ["ScaffoldDeploymentOptions", () => scaffoldDeployment("/nonexistent", BOGUS)],
  ["StoreThreadSaverOptions", () => new StoreThreadSaver(new InMemoryStore(), BOGUS)],
  // pddl, inspect, node, workers, testing
  ["LoadPddlOptions", () => loadPddl("", "", BOGUS)],
  ["InspectorOptions", () => createInspector(BOGUS)],
  ["InspectorRunOptions", () => createInspector().run("r", BOGUS)],
  ["ListenOptions", () => createInspector().listen(BOGUS)],
  ["InspectSearchOptions", () => createInspector().search("s", {}, { wood: 1 }, actions, BOGUS)],
  ["WatchAgentOptions", () => createInspector().crowd.watch(new GoapAgent({ actions }), BOGUS)],
  ["PlannerPoolOptions", () => new PlannerPool(BOGUS)],
  ["FleetWorkerOptions", () => new FleetWorker(BOGUS)],
  ["FleetPoolOptions", () => openFleetPool("postgres://localhost/none", BOGUS)],
  ["RunQueueOptions", () => new RunQueue({} as never, BOGUS)],
  ["FakeStructuredChatModelOptions", () => new FakeStructuredChatModel({ responses: [{}], respones: [] } as never)],
  ["LoadDomainOptions (loadDomainFile)", () => loadDomainFile("/nonexistent.json", BOGUS)],
];

/**
 * Exported names that end in Options or Config but are no options object a
 * user hands to a receiver, or whose keys are open by design.
 */
const EXEMPT: Readonly<Record<string, string>> = {
  ActionRunConfig: "the config langgoap hands to an action's execute, not one it receives",
  ContextPlanOptions: "what contextPlanOptions() returns",
  BudgetOptions: "the budget part of PlanOptions and the strategies' options, checked with them",
  GoapNodeOptions: "the part the planner, executor and observer options share, checked with each",
  StateOptions: "the options MCTS hands to a rollout policy",
  ToolPlanningOptions: "the part of the tool and chat agent options they share, checked with each",
  DefineDomainOptions: "covered above",
};

async function outcome(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe("unknown options are refused", () => {
  it("the trap: a checkpointer given to new GoapGraph() instead of compile() says where it belongs", () => {
    expect(() => new GoapGraph(actions, { checkpointer: new MemorySaver() } as never)).toThrow(
      expect.objectContaining({
        code: "UNKNOWN_OPTION",
        message: '"checkpointer" is an option of compile() (graph.compile({ checkpointer })), not of new GoapGraph()',
        details: expect.objectContaining({ option: "checkpointer", where: "new GoapGraph()" }),
      }),
    );
  });

  it("a thread_id outside configurable, a typo, and an unknown key with the known options listed", async () => {
    const graph = new GoapGraph(actions, { logger: quiet });
    await expect(graph.invoke({ wood: 1 }, {}, { thread_id: "t1" } as never)).rejects.toMatchObject({
      code: "UNKNOWN_OPTION",
      message: '"thread_id" is an option of the run config\'s configurable ({ configurable: { thread_id } }), not of graph.invoke() config',
    });
    expect(() => new GoapGraph(actions, { recursionLimt: 5 } as never)).toThrow(
      'new GoapGraph(): unknown option "recursionLimt"; did you mean "recursionLimit"?',
    );
    expect(() => plan({}, { wood: 1 }, actions, { hueristic: "hmax" } as never)).toThrow(
      'plan(): unknown option "hueristic"; did you mean "heuristic"?',
    );
    expect(() => new AStarStrategy({ colour: "red" } as never)).toThrow(
      'new AStarStrategy(): unknown option "colour"; its options are heuristic, weight, timeBudgetMs, maxExpansions, maxNodes',
    );
    expect(() => new GoalSpec({ wood: 3 } as never)).toThrow(
      /Conditions go under conditions: new GoalSpec\(\{ conditions: \{ \.\.\. \} \}\)/,
    );
  });

  it("a LangChain config passed on with keys of its own (a tool's toolCall) is not refused", async () => {
    const graph = new GoapGraph(actions, { logger: quiet });
    const result = await graph.invoke({ wood: 1 }, {}, { toolCall: { id: "c1", name: "goap", args: {} } } as never);
    expect(result.status).toBe("goal_achieved");
  });

  it("keys whose value is undefined, and inherited keys, are let through", () => {
    const known = { a: true } as const;
    expect(() => checkOptionKeys({ a: 1, b: undefined }, known, "f()")).not.toThrow();
    expect(() => checkOptionKeys(Object.create({ b: 1 }), known, "f()")).not.toThrow();
  });

  it.each(RECEIVERS)("%s: a bogus key is UNKNOWN_OPTION naming it", async (_name, call) => {
    const error = (await outcome(call)) as { code?: string; details?: { option?: string } } | undefined;
    expect(error).toMatchObject({ code: "UNKNOWN_OPTION" });
    expect(["bogusOption", "thread_id", "streamMod", "respones"]).toContain(error?.details?.option);
  });

  it("every exported options type is in the table above or exempted with a reason", () => {
    const barrels = ["src/index.ts", "src/node/index.ts", "src/inspect/index.ts", "src/testing/index.ts", "src/workers/index.ts"];
    const exported = new Set(
      barrels.flatMap((file) =>
        [...readFileSync(`${ROOT}${file}`, "utf8").matchAll(/\b([A-Z]\w*(?:Options|Config))\b/g)].map((m) => m[1] as string),
      ),
    );
    const covered = new Set(RECEIVERS.map(([name]) => name.split(" ")[0] as string));
    const missing = [...exported].filter((name) => !covered.has(name) && !Object.hasOwn(EXEMPT, name)).sort();
    expect(missing).toEqual([]);
  });
});
