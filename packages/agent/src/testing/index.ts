/**
 * @pi/agent-core/testing: test helpers for apps and storages. Needs vitest (an optional peer
 * dependency): it registers vitest tests.
 */
export {
	type ConformanceLog,
	type SessionStorageConformanceOptions,
	sessionStorageConformance,
} from "./storage-conformance.js";
