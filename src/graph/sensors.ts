import { type ActionSpec, callTracer, type GoalSpec, MultiGoal, type PlanningTracer, type WorldState } from "../core/index.js";
import { copyState } from "./copy-state.js";
import { describeBadFactValue, factTypes, findBadFactValue } from "./fact-values.js";
import { errorMessage, type GoapLogger, safeLogger } from "./logger.js";

/**
 * Observes the world before each planning round (OODA "observe") and
 * returns facts to merge into the world state. Sync or async.
 *
 * @example
 * ```ts
 * const stock: Sensor = { name: "stock", sense: async () => ({ in_stock: (await api.count()) > 0 }) };
 * ```
 */
export interface Sensor {
  readonly name: string;
  sense(worldState: Readonly<WorldState>): Partial<WorldState> | undefined | Promise<Partial<WorldState> | undefined>;
}

/**
 * A {@link Sensor} from a name and a function.
 *
 * @example
 * ```ts
 * new FunctionalSensor("clock", () => ({ is_peak_hour: new Date().getHours() >= 17 }));
 * ```
 */
export class FunctionalSensor implements Sensor {
  constructor(
    readonly name: string,
    private readonly fn: (worldState: Readonly<WorldState>) => Partial<WorldState> | undefined | Promise<Partial<WorldState> | undefined>,
  ) {}

  sense(worldState: Readonly<WorldState>): Partial<WorldState> | undefined | Promise<Partial<WorldState> | undefined> {
    return this.fn(worldState);
  }
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
}

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
  const { tracer } = options;
  const logger = safeLogger(options.logger ?? {});
  const goals = options.goal ? (options.goal instanceof MultiGoal ? options.goal.goals : [options.goal]) : [];
  const types = factTypes(
    options.actions ?? [],
    goals.map((g) => g.conditions),
  );
  let state: WorldState = { ...worldState };
  for (const sensor of sensors) {
    let updates: unknown;
    try {
      // A copy: a sensor that scribbles on what it reads and then fails leaves no trace.
      updates = await sensor.sense(copyState(state));
    } catch (error) {
      logger.warn(`sensor "${sensor.name}" threw and was skipped: ${errorMessage(error)}`, { sensor: sensor.name });
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
    const bad = findBadFactValue(next, state, types);
    if (bad) {
      logger.warn(`${describeBadFactValue(`sensor "${sensor.name}"`, bad)}, so its update was skipped`, {
        sensor: sensor.name,
        key: bad.key,
      });
      continue;
    }
    state = next;
    await callTracer(tracer, "onSensorComplete", sensor.name, updates as WorldState);
  }
  return state;
}
