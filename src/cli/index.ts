export { loadDomainFile } from "../node/index.js";
export { parseBudget, type SearchBudget } from "./budget.js";
export { COMMANDS, type CommandName, type CommandSpec, type OptionSpec, PLAN_FORMATS } from "./commands/spec.js";
export { type CliIo, processIo } from "./io.js";
export { EXIT, runCli } from "./run-cli.js";
export { STRATEGIES, type StrategyName } from "./search.js";
export { type LoadedDomain, loadSource } from "./source.js";
