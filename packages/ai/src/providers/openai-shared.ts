/**
 * Small helpers shared by the two OpenAI wire APIs (`openai-completions` and `openai-responses`).
 * Keep this file tiny: anything specific to one API belongs in that API's folder.
 */
import type { ImageContent } from "../types.js";

/**
 * The `data:` URL that OpenAI's image inputs take (`image_url.url` in Chat Completions,
 * `image_url` of an `input_image` part in Responses).
 *
 * @example
 * imageDataUrl({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" })
 * // "data:image/png;base64,iVBORw0KGgo="
 */
export function imageDataUrl(image: ImageContent): string {
	return `data:${image.mimeType};base64,${image.data}`;
}
