import { registerApiProvider } from "../api-registry.js";
import { AssistantMessageBuilder } from "../assistant-message-builder.js";
import { AssistantMessageEventStream } from "../event-stream.js";
import type { AssistantMessageEvent, Context, Model, SimpleStreamOptions, StreamOptions } from "../types.js";
import type { BedrockOptions } from "./reference-only-options.js";

/** A Bedrock implementation, as the reference's `@mariozechner/pi-ai/bedrock-provider` exports it. */
export interface BedrockProviderModule {
	streamBedrock: (model: Model<"bedrock-converse-stream">, context: Context, options?: BedrockOptions) => AsyncIterable<AssistantMessageEvent>;
	streamSimpleBedrock: (model: Model<"bedrock-converse-stream">, context: Context, options?: SimpleStreamOptions) => AsyncIterable<AssistantMessageEvent>;
}

/**
 * Plugs in a Bedrock implementation for api `bedrock-converse-stream`. This package has no Bedrock
 * provider of its own (it would need the AWS SDK); with this, a program that passes the
 * reference's Bedrock module keeps working. Each event of the module's streams is forwarded as it
 * is; a stream that throws or ends without a final event ends as an `error` message.
 *
 * @example
 * import * as bedrock from "@mariozechner/pi-ai/bedrock-provider";
 * setBedrockProviderModule(bedrock);
 */
export function setBedrockProviderModule(module: BedrockProviderModule): void {
	if (typeof module?.streamBedrock !== "function" || typeof module.streamSimpleBedrock !== "function") {
		throw new TypeError("setBedrockProviderModule: the module needs `streamBedrock` and `streamSimpleBedrock` functions");
	}
	const forward =
		<TOptions extends StreamOptions>(source: (model: Model<"bedrock-converse-stream">, context: Context, options?: TOptions) => AsyncIterable<AssistantMessageEvent>) =>
		(model: Model<"bedrock-converse-stream">, context: Context, options?: TOptions): AssistantMessageEventStream => {
			const builder = new AssistantMessageBuilder(model, [options?.apiKey]);
			const out = builder.stream;
			(async () => {
				for await (const event of source(model, context, options)) {
					out.push(event);
					if (event.type === "done" || event.type === "error") return;
				}
				throw new Error("The Bedrock module's stream ended without a final event.");
			})().catch((error: unknown) => {
				if (!out.isDone) builder.fail(error, options?.signal);
			});
			return out;
		};
	registerApiProvider({ api: "bedrock-converse-stream", stream: forward<BedrockOptions>(module.streamBedrock), streamSimple: forward<SimpleStreamOptions>(module.streamSimpleBedrock) });
}
