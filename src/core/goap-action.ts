import type { ZodType } from "zod";
import { type ActionContext, ActionSpec, type ActionSpecOptions, type CostFunction, type EffectValidator } from "./action.js";
import type { Conditions } from "./conditions.js";
import type { EffectFunction, Effects } from "./effects.js";
import type { WorldState } from "./facts.js";
import type { ActionQos, ActionQosOptions } from "./qos.js";

type Declared = typeof GoapAction;

/**
 * A class-based action: a subclass declares its preconditions, effects and
 * cost as static fields and does its work in {@link GoapAction.run}; an
 * instance *is* an {@link ActionSpec}, so it goes wherever one does
 * (`plan`, `GoapGraph`, `GoapAgent`, domain catalogs).
 *
 * Optional overrides: {@link GoapAction.costIn} for a cost that depends on
 * the state, {@link GoapAction.validate} for an effect check. Instances are
 * frozen like every `ActionSpec`: keep configuration in static fields or
 * pass it to the constructor as overrides, never in instance fields.
 *
 * The name is `static actionName`, else the class name (set `actionName`
 * when your bundler renames classes).
 *
 * @example
 * ```ts
 * class ChopWood extends GoapAction {
 *   static override actionName = "chop_wood";
 *   static override preconditions = { has_axe: true };
 *   static override effects = { wood: { inc: 2 } };
 *   static override cost = 2;
 *   override async run(state: Readonly<WorldState>) {
 *     await forest.chop();
 *     return { wood: Number(state.wood) + 2 };
 *   }
 * }
 * plan({ has_axe: true, wood: 0 }, { wood: { gte: 2 } }, [new ChopWood()])?.actionNames; // ["chop_wood"]
 * ```
 */
export abstract class GoapAction extends ActionSpec {
  /** The action's name. @defaultValue the class name */
  static actionName?: string;
  /** @defaultValue {} */
  static preconditions?: Conditions;
  /** Static effects, or a function of the state (then `effectKeys`). @defaultValue {} */
  static effects?: Effects | EffectFunction;
  static effectKeys?: Iterable<string>;
  /** A constant cost; override {@link GoapAction.costIn} for a state-dependent one. @defaultValue 1 */
  static cost?: number;
  static description?: string;
  static qos?: ActionQos | ActionQosOptions;
  static maxRetries?: number;
  static canRerun?: boolean;
  static readOnly?: boolean;
  static utility?: number | CostFunction;
  static requireHumanApproval?: boolean | ZodType;
  static humanInputKey?: string;
  static resources?: Readonly<Record<string, number>>;
  static durationMs?: number;
  static metadata?: Readonly<Record<string, unknown>>;

  /** Builds the spec from the subclass's declarations; `overrides` win (e.g. a different name or cost per instance). */
  constructor(overrides: Partial<ActionSpecOptions> = {}) {
    const declared = new.target as Declared;
    const proto = new.target.prototype as GoapAction;
    const base = GoapAction.prototype;
    // `this` is bound once super() returns; these closures only run later.
    const options: ActionSpecOptions = {
      name: declared.actionName ?? declared.name,
      ...pick(declared),
      ...(proto.run !== base.run ? { execute: (state: Readonly<WorldState>, ctx: ActionContext) => this.run(state, ctx) } : {}),
      ...(proto.costIn !== base.costIn ? { cost: (state: Readonly<WorldState>) => this.costIn(state) } : {}),
      ...(proto.validate !== base.validate
        ? { effectValidator: ((before, after) => this.validate(before, after)) satisfies EffectValidator }
        : {}),
      ...overrides,
    };
    super(options);
  }

  /** The real work (the graph's executor calls it); a returned object is authoritative over the declared effects. */
  run(
    _state: Readonly<WorldState>,
    _context: ActionContext,
  ): Promise<Partial<WorldState> | undefined | void> | Partial<WorldState> | undefined | void {
    return undefined;
  }

  /** The cost in `state`, when it depends on the state. */
  costIn(_state: Readonly<WorldState>): number {
    return 1;
  }

  /** Checks an execution's outcome; `false` rolls the world state back. */
  validate(_before: Readonly<WorldState>, _after: Readonly<WorldState>): boolean | Promise<boolean> {
    return true;
  }
}

const DECLARABLE = [
  "preconditions",
  "effects",
  "effectKeys",
  "cost",
  "description",
  "qos",
  "maxRetries",
  "canRerun",
  "readOnly",
  "utility",
  "requireHumanApproval",
  "humanInputKey",
  "resources",
  "durationMs",
  "metadata",
] as const satisfies readonly (keyof ActionSpecOptions & keyof Declared)[];

/** The options a subclass declared (own or inherited statics), undefined ones left out. */
function pick(declared: Declared): Partial<ActionSpecOptions> {
  const out: Record<string, unknown> = {};
  for (const key of DECLARABLE) if (declared[key] !== undefined) out[key] = declared[key];
  return out as Partial<ActionSpecOptions>;
}
