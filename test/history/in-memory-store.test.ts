import { InMemoryStore } from "@langchain/langgraph";
import { describe } from "vitest";
import { storeContract } from "../support/store-contract.js";

describe("InMemoryStore (reference behaviour)", () => {
  const store = new InMemoryStore();
  storeContract(() => store);
});
