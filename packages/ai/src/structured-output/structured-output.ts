import type { OutputOptions } from "../types.js";
import { type OutputReadResult, StructuredOutputReader } from "./output-reader.js";
import { checkOutput, type JsonSchemaObject, outputJsonSchema, outputName } from "./output-schema.js";
import { dropNullOptionals } from "./strict-output-schema.js";

/**
 * The structured output of one reply, as `AssistantMessageBuilder` drives it: the text is read
 * as it streams, and at a `stop` it is parsed, validated and turned into `output` or an error.
 * Every error message names the schema and what failed: the parser's offset and problem, the
 * first JSON path that does not match and what it expected, or the model's refusal.
 */
export class StructuredOutput {
	/** The reader of the reply's text; `text_delta` events read `partialOutput` from it. */
	readonly reader = new StructuredOutputReader();
	private readonly jsonSchema: JsonSchemaObject;
	private refusal = "";
	private nullOptionals = false;

	/** Throws a `TypeError` when `output` has no JSON Schema object or a bad name. */
	constructor(private readonly output: OutputOptions) {
		this.jsonSchema = outputJsonSchema(output);
	}

	/** A piece of the reply's text. */
	push(delta: string): void {
		this.reader.push(delta);
	}

	/** Forgets the text so far: it came before a tool call. */
	reset(): void {
		this.reader.reset();
	}

	/** A piece of the model's refusal (OpenAI's `refusal`): the reply then ends with an error quoting it. */
	refuse(text: string): void {
		this.refusal += text;
	}

	/** The schema went out in OpenAI strict mode, where optional properties are nullable. */
	acceptNullOptionals(): void {
		this.nullOptionals = true;
	}

	/** At a `stop`: the validated value, or the error message naming what failed. */
	finish(): OutputReadResult {
		const name = outputName(this.output);
		if (this.refusal !== "") return { ok: false, error: `The model refused to produce output "${name}": ${this.refusal}` };
		const read = this.reader.finish();
		if (!read.ok) return { ok: false, error: `The reply is not JSON for output "${name}": ${read.error}` };
		const value = this.nullOptionals ? dropNullOptionals(this.jsonSchema, read.value) : read.value;
		let checked: ReturnType<typeof checkOutput>;
		try {
			checked = checkOutput(this.output, value);
		} catch (error) {
			return { ok: false, error: `Could not validate output "${name}": ${error instanceof Error ? error.message : String(error)}` };
		}
		if (!checked.ok) return { ok: false, error: `The reply does not match output schema "${name}": ${checked.problem}` };
		return { ok: true, value: checked.value };
	}
}
