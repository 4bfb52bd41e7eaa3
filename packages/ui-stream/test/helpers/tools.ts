import { defineTool } from "@pi/agent-core";
import { Type } from "@pi/ai";

/** Adds two numbers. */
export const add = defineTool({
	name: "add",
	label: "Add",
	description: "Adds two numbers.",
	parameters: Type.Object({ a: Type.Number(), b: Type.Number() }),
	execute: async (_id, { a, b }) => ({ content: [{ type: "text", text: String(a + b) }], details: { sum: a + b } }),
});

/** Always fails, with a message the client must see. */
export const lookup = defineTool({
	name: "lookup",
	label: "Lookup",
	description: "Looks a word up.",
	parameters: Type.Object({ word: Type.String() }),
	execute: async (_id, { word }) => {
		throw new Error(`no entry for "${word}"`);
	},
});

/** Deletes a file, after a person approves. Records what it deleted. */
export function deleteFileTool(deleted: string[]) {
	return defineTool({
		name: "delete_file",
		label: "Delete",
		description: "Deletes a file.",
		parameters: Type.Object({ path: Type.String() }),
		needsApproval: true,
		execute: async (_id, { path }) => {
			deleted.push(path);
			return { content: [{ type: "text", text: `deleted ${path}` }], details: {} };
		},
	});
}
