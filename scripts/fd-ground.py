#!/usr/bin/env python3
"""Fast Downward's grounding of PDDL instances, for cross-checking src/pddl.

Runs FD's own translator modules (parse, normalize, relaxed exploration and
instantiation; no SAS+ translation) on each instance and prints one JSON line:
the fluent facts and operators FD's instantiation finds, whether the goal is
relaxed-reachable, and the time taken. With --ops, also every grounded
operator as "name | pre | add | del | cost" (sorted), to diff against ours.

Usage: fd-ground.py <downward/src> [--ops] <domain.pddl> <problem.pddl> [<domain> <problem> ...]
"""
import contextlib
import json
import sys
import time

fd_src = sys.argv[1]
args = sys.argv[2:]
with_ops = "--ops" in args
args = [a for a in args if a != "--ops"]
sys.path.insert(0, fd_src)

from translate import instantiate, normalize, options, pddl_parser  # noqa: E402


def literal_text(literal):
    return "%s%s(%s)" % ("not " if literal.negated else "", literal.predicate, ",".join(literal.args))


for domain, problem in zip(args[0::2], args[1::2]):
    options.set_options([domain, problem])
    started = time.process_time()
    record = {"domain": domain, "problem": problem}
    try:
        with contextlib.redirect_stdout(sys.stderr):  # FD's timers print to stdout
            task = pddl_parser.open(domain_filename=domain, task_filename=problem)
            parsed = time.process_time()
            normalize.normalize(task)
            reachable, atoms, actions, goal, axioms, _ = instantiate.explore(task)
        record.update({
            "facts": len(atoms),
            "operators": len(actions),
            "axioms": len(axioms),
            "relaxedReachable": reachable,
            "goalImpossible": goal is None,
            "parseMs": round((parsed - started) * 1000),
            "groundMs": round((time.process_time() - started) * 1000),
        })
        if with_ops:
            lines = []
            for action in actions:
                pre = sorted(literal_text(l) for l in action.precondition)
                add = sorted((",".join(map(literal_text, c)) + " -> " if c else "") + literal_text(a) for c, a in action.add_effects)
                dele = sorted((",".join(map(literal_text, c)) + " -> " if c else "") + literal_text(a) for c, a in action.del_effects)
                lines.append(" | ".join([action.name, " ".join(pre), " ".join(add), " ".join(dele), str(action.cost)]))
            record["ops"] = sorted(lines)
    except SystemExit as error:
        record["error"] = str(error)
    except Exception as error:  # FD's parse errors and crashes alike: the instance is refused
        record["error"] = "%s: %s" % (type(error).__name__, str(error).splitlines()[-1] if str(error) else "")
    print(json.dumps(record), flush=True)
