/**
 * LLM+P: a chat model turns a request into a PDDL goal over a given domain,
 * the optimal planner solves it, and the plan runs in a GoapGraph whose
 * actions are bound by schema name. A goal naming an object that does not
 * exist is sent back to the model with the parser's message (line and
 * column); a goal that reads well but can never hold is sent back with the
 * atoms at fault, as `explainNoPlan` names them. Three answers at most.
 *
 * Offline: a scripted fake chat model first names a ball that does not
 * exist, then puts a ball in a gripper's place (`at` holds of rooms only),
 * then gets it right. Any LangChain chat model with
 * withStructuredOutput takes its place (new ChatOpenAI({ model })).
 * Run: npx tsx examples/pddl-llm-agent.ts
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod";
import { LangGoapError } from "../src/core/index.js";
import { GoapGraph, successfulActionNames } from "../src/graph/index.js";
import { loadPddl } from "../src/pddl/index.js";
import { explainNoPlan, planDetailed } from "../src/planner/index.js";
import { FakeStructuredChatModel } from "../src/testing/index.js";

const DOMAIN = `
(define (domain gripper-typed)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates (at-robby ?r - room) (at ?b - ball ?r - room) (free ?g - gripper) (carry ?b - ball ?g - gripper))
  (:action move :parameters (?from ?to - room)
    :precondition (at-robby ?from)
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (at ?b ?r) (at-robby ?r) (free ?g))
    :effect (and (carry ?b ?g) (not (at ?b ?r)) (not (free ?g))))
  (:action drop :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carry ?b ?g) (at-robby ?r))
    :effect (and (at ?b ?r) (free ?g) (not (carry ?b ?g)))))`;

// The problem's objects and start; its goal is what the model will write.
const PROBLEM = `
(define (problem tidy-up)
  (:domain gripper-typed)
  (:objects kitchen hall - room red blue green - ball left right - gripper)
  (:init (at-robby kitchen) (free left) (free right) (at red kitchen) (at blue kitchen) (at green hall))
  (:goal (and)))`;

const answerSchema = z.object({ goal: z.string().describe("A PDDL goal formula, e.g. (and (at red hall))") });

function chatModel(): BaseChatModel {
  return new FakeStructuredChatModel({
    responses: [
      { goal: "(and (at red hall) (at yellow hall))" },
      { goal: "(and (at red hall) (at blue left))" },
      { goal: "(and (at red hall) (at blue hall))" },
    ],
  });
}

async function main(): Promise<void> {
  const task = loadPddl(DOMAIN, PROBLEM);
  const llm = chatModel().withStructuredOutput(answerSchema, { name: "pddl_goal" });
  const messages = [
    new SystemMessage(
      `Write the goal of this PDDL problem as one formula. Objects: ${[...task.problem.objects.keys()].join(", ")}. Predicates: at-robby, at, free, carry.`,
    ),
    new HumanMessage("Please bring the red and the blue ball to the hall."),
  ];
  let goal: Readonly<Record<string, unknown>> | undefined;
  const rejections: string[] = [];
  for (let attempt = 1; attempt <= 3 && !goal; attempt++) {
    const answer = await llm.invoke(messages);
    let reason: string;
    try {
      const written = task.goalFromPddl(answer.goal);
      if (planDetailed(task.state, written, task.actions).status === "found") {
        goal = written;
        console.log(`goal (answer ${attempt}): ${answer.goal}`);
        break;
      }
      const never = explainNoPlan(task.state, written, task.actions).unreachableConditions;
      reason = never.length > 0 ? `these can never hold: ${never.join(", ")}` : "no sequence of actions reaches it";
    } catch (error) {
      if (!(error instanceof LangGoapError)) throw error;
      reason = error.message;
    }
    console.log(`answer ${attempt} rejected: ${reason}`);
    rejections.push(reason);
    messages.push(new HumanMessage(`Your goal ${answer.goal} was rejected: ${reason}. Write it again.`));
  }
  if (!goal) throw new Error("the model never wrote a valid goal");

  const moved: string[] = [];
  const actions = task.withExecutors({
    move: async ([from, to]) => {
      moved.push(`${from} -> ${to}`);
    },
  });
  const result = await new GoapGraph(actions).invoke(goal as Record<string, boolean>, { ...task.state });
  const steps = successfulActionNames(result);
  console.log(task.formatPlan(steps));

  const ok =
    result.status === "goal_achieved" &&
    result.worldState["at(red,hall)"] === true &&
    result.worldState["at(blue,hall)"] === true &&
    steps.length === 5 &&
    moved.join(", ") === "kitchen -> hall" &&
    rejections.length === 2 &&
    rejections[0]?.includes('unknown object "yellow"') === true &&
    rejections[1] === "these can never hold: at(blue,left) = true";
  if (!ok) {
    console.error("unexpected outcome:", result.status, steps, moved, rejections);
    process.exitCode = 1;
  }
}

await main();
