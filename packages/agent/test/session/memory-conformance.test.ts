import { createMemorySessionStorage } from "@pi/agent-core";
import { sessionStorageConformance } from "@pi/agent-core/testing";

sessionStorageConformance("memory", {
	createLog: () => {
		const storage = createMemorySessionStorage();
		let first = true;
		// The first instance is the one created; every further one is a reopen over the same log.
		return { open: () => (first ? ((first = false), storage) : storage.reopen()) };
	},
});
