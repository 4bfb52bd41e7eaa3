/**
 * The same tool parameters and output schema written in typebox, zod, valibot and arktype, for
 * the Standard Schema tests. The tool is the one of the recorded runs (`get_book_info`, called
 * with `{ isbn: "0-7653-1178-X" }`); the output is Mirascope's `Book` of the
 * `structured-output` captures.
 */
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import { Type } from "typebox";
import * as v from "valibot";
import { z } from "zod";
import type { Tool } from "../../src/types.js";
import type { ToolSchema } from "../../src/validation/standard-schema.js";

export const LIBRARIES = ["typebox", "zod", "valibot", "arktype"] as const;
export type Library = (typeof LIBRARIES)[number];

/** `get_book_info`'s parameters: a transform, an enum with a default, a coerced number, an optional field, a nested array. */
export function lookUpParameters(library: Library): ToolSchema {
	switch (library) {
		case "typebox":
			return Type.Object({
				isbn: Type.String({ description: "ISBN-10 or ISBN-13" }),
				format: Type.Optional(Type.Union([Type.Literal("hardcover"), Type.Literal("paperback")], { default: "paperback" })),
				copies: Type.Optional(Type.Integer({ default: 1 })),
				note: Type.Optional(Type.String()),
				shelves: Type.Optional(Type.Array(Type.Object({ name: Type.String(), slots: Type.Array(Type.Number()) }))),
			});
		case "zod":
			return z.object({
				isbn: z
					.string()
					.describe("ISBN-10 or ISBN-13")
					.transform((isbn) => isbn.replaceAll("-", "")),
				format: z.enum(["hardcover", "paperback"]).default("paperback"),
				copies: z.coerce.number().int().default(1),
				note: z.string().optional(),
				shelves: z.array(z.object({ name: z.string(), slots: z.array(z.coerce.number()) })).default([]),
			});
		case "valibot":
			return toStandardJsonSchema(
				v.object({
					isbn: v.pipe(
						v.string(),
						v.description("ISBN-10 or ISBN-13"),
						v.transform((isbn) => isbn.replaceAll("-", "")),
					),
					format: v.optional(v.picklist(["hardcover", "paperback"]), "paperback"),
					copies: v.optional(v.pipe(v.number(), v.integer()), 1),
					note: v.optional(v.string()),
					shelves: v.optional(v.array(v.object({ name: v.string(), slots: v.array(v.number()) })), []),
				}),
			);
		case "arktype":
			return type({
				isbn: type("string")
					.describe("ISBN-10 or ISBN-13")
					.pipe((isbn) => isbn.replaceAll("-", "")),
				format: "'hardcover' | 'paperback' = 'paperback'",
				copies: "number.integer = 1",
				"note?": "string",
				"shelves?": type({ name: "string", slots: "number[]" }).array(),
			});
	}
}

export function lookUpTool(library: Library): Tool<ToolSchema> {
	return { name: "get_book_info", description: "Look up book information by ISBN.", parameters: lookUpParameters(library) };
}

/** Mirascope's `Book`, with a transform on `title` in the libraries that have one. */
export const zodBook = z.object({
	title: z.string().transform((title) => title.toLowerCase()),
	author: z.object({ first_name: z.string(), last_name: z.string() }),
	rating: z.number().int(),
});
