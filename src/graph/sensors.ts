import type { WorldState } from "../core/index.js";
import { callTracer, type PlanningTracer } from "../core/index.js";
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

/**
 * Runs sensors one after another; each sees the updates of the ones before.
 * A sensor that throws or returns something other than an object is logged
 * and skipped: a broken sensor never stops planning.
 * Returns the new world state (the input is not modified).
 */
export async function runSensors(
  sensors: readonly Sensor[],
  worldState: Readonly<WorldState>,
  options: { readonly tracer?: PlanningTracer | undefined; readonly logger?: GoapLogger } = {},
): Promise<WorldState> {
  const { tracer } = options;
  const logger = safeLogger(options.logger ?? {});
  let state: WorldState = { ...worldState };
  for (const sensor of sensors) {
    let updates: unknown;
    try {
      updates = await sensor.sense(state);
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
    state = { ...state, ...(updates as WorldState) };
    await callTracer(tracer, "onSensorComplete", sensor.name, updates as WorldState);
  }
  return state;
}
