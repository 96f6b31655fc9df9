import { describe } from "vitest";
import { MemoryStorage } from "../../sandbox/core/memory-storage.ts";
import { storageBehaviour } from "../support/storage-behaviour.ts";

describe("MemoryStorage", () => {
  storageBehaviour(() => new MemoryStorage());
});
