import {
  type ActionSpec,
  callTracer,
  callWithin,
  checkTimeout,
  DEFAULT_OBSERVER_TIMEOUT_MS,
  findNonJsonValue,
  type GoalSpec,
  LangGoapError,
  MultiGoal,
  type PlanningTracer,
  settleWithin,
  type WorldState,
} from "../core/index.js";
import { checkOptionKeys, type OptionKeys } from "../core/option-keys.js";
import { copyState } from "./copy-state.js";
import { describeBadFactValue, factTypes, findBadFactValue } from "./fact-values.js";
import { errorMessage, type GoapLogger, safeLogger } from "./logger.js";

/** What a sensor receives besides the world state. */
export interface SensorContext {
  /** Aborted when the sensor's time limit passes or the run is cancelled. */
  readonly signal: AbortSignal;
}

/** What a sensor reports: facts to merge, or nothing. */
export type SensorUpdates = Partial<WorldState> | undefined;

/**
 * Observes the world before each planning round (OODA "observe") and
 * returns facts to merge into the world state. Sync or async; an async
 * sensor has `timeoutMs` (or the graph's `sensorTimeoutMs`) to answer.
 *
 * @example
 * ```ts
 * const stock: Sensor = { name: "stock", timeoutMs: 2_000, sense: async (_s, { signal }) => ({ in_stock: (await api.count({ signal })) > 0 }) };
 * ```
 */
export interface Sensor {
  readonly name: string;
  /** Time limit of one reading in ms (`Infinity` for none). @defaultValue the graph's `sensorTimeoutMs` (30 s) */
  readonly timeoutMs?: number;
  sense(worldState: Readonly<WorldState>, context: SensorContext): SensorUpdates | Promise<SensorUpdates>;
}

/** Time limit of one sensor reading unless the sensor or the graph says otherwise: 30 seconds. */
export const DEFAULT_SENSOR_TIMEOUT_MS = 30_000;

/**
 * A {@link Sensor} from a name and a function.
 *
 * @example
 * ```ts
 * new FunctionalSensor("clock", () => ({ is_peak_hour: new Date().getHours() >= 17 }));
 * ```
 */
export class FunctionalSensor implements Sensor {
  readonly timeoutMs: number | undefined;

  /** `options.timeoutMs`: the time limit of one reading. @defaultValue the graph's `sensorTimeoutMs` */
  constructor(
    readonly name: string,
    private readonly fn: (worldState: Readonly<WorldState>, context: SensorContext) => SensorUpdates | Promise<SensorUpdates>,
    options: { readonly timeoutMs?: number } = {},
  ) {
    this.timeoutMs = options.timeoutMs === undefined ? undefined : checkTimeout(options.timeoutMs, `sensor "${name}" timeoutMs`);
  }

  sense(worldState: Readonly<WorldState>, context: SensorContext): SensorUpdates | Promise<SensorUpdates> {
    return this.fn(worldState, context);
  }
}

/** One reading, on a copy of the state (a sensor that scribbles on what it reads and then fails leaves no trace), within its time limit. */
function readSensor(sensor: Sensor, state: WorldState, defaultMs: number, run: AbortSignal | undefined): Promise<unknown> {
  const ms = sensor.timeoutMs === undefined ? defaultMs : checkTimeout(sensor.timeoutMs, `sensor "${sensor.name}" timeoutMs`);
  return callWithin((signal) => sensor.sense(copyState(state), { signal }), {
    ms,
    what: `sensor "${sensor.name}"`,
    details: { sensor: sensor.name },
    signal: run,
  });
}

/** Options of {@link runSensors}. */
export interface RunSensorsOptions {
  /** Told of each sensor's updates. */
  readonly tracer?: PlanningTracer | undefined;
  /** Where skipped sensors are reported. @defaultValue none */
  readonly logger?: GoapLogger;
  /** The domain's actions: the facts they use as numbers must stay finite numbers. @defaultValue [] */
  readonly actions?: readonly ActionSpec[];
  /** The goal being planned, whose conditions type facts too. */
  readonly goal?: GoalSpec | MultiGoal;
  /** Time limit of a reading for sensors without their own `timeoutMs`. @defaultValue {@link DEFAULT_SENSOR_TIMEOUT_MS} */
  readonly timeoutMs?: number;
  /** Cancels the readings (a cancelled run). */
  readonly signal?: AbortSignal | undefined;
}

const RUN_SENSORS_OPTIONS_KEYS = {
  tracer: true,
  logger: true,
  actions: true,
  goal: true,
  timeoutMs: true,
  signal: true,
} as const satisfies OptionKeys<RunSensorsOptions>;

/**
 * Runs sensors one after another; each sees the updates of the ones before.
 * A sensor that throws, returns something other than an object, or sets a
 * value its fact cannot hold (`NaN`, an infinite number, a string for a
 * number fact) is logged and skipped, its whole update with it: a broken
 * sensor never stops planning. Returns the new world state (the input is
 * not modified).
 *
 * @example
 * ```ts
 * const world = await runSensors([scale], { wood: 0 }, { actions, logger });
 * ```
 */
export async function runSensors(
  sensors: readonly Sensor[],
  worldState: Readonly<WorldState>,
  options: RunSensorsOptions = {},
): Promise<WorldState> {
  checkOptionKeys(options, RUN_SENSORS_OPTIONS_KEYS, "runSensors()");
  const { tracer } = options;
  const logger = safeLogger(options.logger ?? {});
  const goals = options.goal ? (options.goal instanceof MultiGoal ? options.goal.goals : [options.goal]) : [];
  // Built at the first update to check: without sensors (the usual case) a planning round never pays for it (over
  // 10,000 actions it took 100-150 ms in one go, on the event loop).
  let types: ReturnType<typeof factTypes> | undefined;
  let state: WorldState = { ...worldState };
  for (const sensor of sensors) {
    let updates: unknown;
    try {
      updates = await readSensor(sensor, state, options.timeoutMs ?? DEFAULT_SENSOR_TIMEOUT_MS, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const timedOut = error instanceof LangGoapError && error.code === "TIMEOUT";
      const what = timedOut ? `timed out and was skipped: ${error.message}` : `threw and was skipped: ${errorMessage(error)}`;
      logger.warn(`sensor "${sensor.name}" ${what}`, { sensor: sensor.name });
      continue;
    }
    if (updates === undefined || updates === null) continue;
    if (typeof updates !== "object" || Array.isArray(updates)) {
      logger.warn(`sensor "${sensor.name}" returned ${typeof updates}; expected an object of facts, so it was skipped`, {
        sensor: sensor.name,
      });
      continue;
    }
    const next = { ...state, ...(updates as WorldState) };
    types ??= factTypes(
      options.actions ?? [],
      goals.map((g) => g.conditions),
    );
    const bad = findBadFactValue(next, state, types);
    if (bad) {
      logger.warn(`${describeBadFactValue(`sensor "${sensor.name}"`, bad)}, so its update was skipped`, {
        sensor: sensor.name,
        key: bad.key,
      });
      continue;
    }
    const notJson = findNonJsonValue(updates);
    if (notJson) {
      logger.warn(
        `sensor "${sensor.name}" returned a value that is not JSON at "${notJson.path}": ${notJson.reason}, so its update was skipped`,
        {
          sensor: sensor.name,
          key: notJson.path,
        },
      );
      continue;
    }
    state = next;
    const delivered = callTracer(tracer, "onSensorComplete", sensor.name, updates as WorldState);
    // Graph nodes pass a tracer that is already time-limited; a bare one gets the default limit here.
    if (delivered) await settleWithin(delivered, { ms: DEFAULT_OBSERVER_TIMEOUT_MS, onTimeout: () => undefined }).catch(() => undefined);
  }
  return state;
}
