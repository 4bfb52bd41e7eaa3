import type { Api, ImageContent } from "@pi/ai";

/**
 * Image token costs at the providers' documented rates, from the image's pixel size (read from
 * its PNG, JPEG, GIF or WebP header), never from the length of its base64 text: a 1 MB
 * screenshot is about 1,500 tokens, not 330,000.
 */

/** What an image whose size cannot be read counts: Anthropic's cap, the highest common rate. */
export const UNKNOWN_IMAGE_TOKENS = 1_600;

/** Pixel width and height of a base64 image, or `undefined` when its header is not recognised. */
export function imageDimensions(data: string): { width: number; height: number } | undefined {
	// JPEG's size marker can follow EXIF data; 64 KB of base64 (48 KB of bytes) covers cameras' EXIF.
	const bytes = decodeBase64Prefix(data, 65_536);
	if (!bytes || bytes.length < 10) return undefined;
	const at = (index: number) => bytes[index] ?? 0;
	const u16be = (index: number) => (at(index) << 8) | at(index + 1);
	const u16le = (index: number) => at(index) | (at(index + 1) << 8);
	const u24le = (index: number) => at(index) | (at(index + 1) << 8) | (at(index + 2) << 16);
	const u32be = (index: number) => ((at(index) << 24) >>> 0) + ((at(index + 1) << 16) | (at(index + 2) << 8) | at(index + 3));
	const ascii = (index: number, length: number) => String.fromCharCode(...bytes.subarray(index, index + length));

	if (at(0) === 0x89 && ascii(1, 3) === "PNG" && bytes.length >= 24) return sized(u32be(16), u32be(20));
	if (ascii(0, 4) === "GIF8") return sized(u16le(6), u16le(8));
	if (ascii(0, 4) === "RIFF" && ascii(8, 4) === "WEBP" && bytes.length >= 30) {
		const chunk = ascii(12, 4);
		if (chunk === "VP8 ") return sized(u16le(26) & 0x3fff, u16le(28) & 0x3fff);
		if (chunk === "VP8L") {
			const bits = at(21) | (at(22) << 8) | (at(23) << 16) | (at(24) << 24);
			return sized((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
		}
		if (chunk === "VP8X") return sized(u24le(24) + 1, u24le(27) + 1);
		return undefined;
	}
	if (at(0) === 0xff && at(1) === 0xd8) {
		// Walk the JPEG segments to the first start-of-frame marker (SOF0–SOF15 but DHT, JPG, DAC).
		let index = 2;
		while (index + 9 < bytes.length) {
			if (at(index) !== 0xff) return undefined;
			const marker = at(index + 1);
			if (marker === 0xff) {
				index++; // fill byte
				continue;
			}
			if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
				return sized(u16be(index + 7), u16be(index + 5));
			}
			index += 2 + u16be(index + 2);
		}
	}
	return undefined;
}

/**
 * The tokens an image costs with the wire API `api`, at that provider's documented rate:
 *
 * - `anthropic-messages`: width × height / 750, after scaling the long edge to at most 1,568 px,
 *   at most 1,600 tokens;
 * - `openai-completions` / `openai-responses` (high detail, GPT-4o rates): fit into 2048 × 2048,
 *   scale the short side to at most 768, then 170 per 512-px tile plus 85;
 * - `google-generative-ai`: 258 when both sides are at most 384 px, else 258 per 768 × 768 tile;
 * - any other API (or none): the highest of the three, so that an estimate errs towards
 *   compacting early.
 *
 * An image whose size cannot be read counts {@link UNKNOWN_IMAGE_TOKENS}.
 */
export function estimateImageTokens(image: ImageContent, api?: Api): number {
	const size = cachedDimensions(image);
	if (!size) return UNKNOWN_IMAGE_TOKENS;
	switch (api) {
		case "anthropic-messages":
			return anthropicImageTokens(size.width, size.height);
		case "openai-completions":
		case "openai-responses":
			return openAiImageTokens(size.width, size.height);
		case "google-generative-ai":
			return geminiImageTokens(size.width, size.height);
		default:
			return Math.max(
				anthropicImageTokens(size.width, size.height),
				openAiImageTokens(size.width, size.height),
				geminiImageTokens(size.width, size.height),
			);
	}
}

function anthropicImageTokens(width: number, height: number): number {
	const scale = Math.min(1, 1568 / Math.max(width, height));
	return Math.min(1_600, Math.ceil((width * scale * (height * scale)) / 750));
}

function openAiImageTokens(width: number, height: number): number {
	let w = width;
	let h = height;
	const fit = Math.min(1, 2048 / Math.max(w, h));
	w *= fit;
	h *= fit;
	const shortSide = Math.min(1, 768 / Math.min(w, h));
	w *= shortSide;
	h *= shortSide;
	return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512);
}

function geminiImageTokens(width: number, height: number): number {
	if (width <= 384 && height <= 384) return 258;
	return 258 * Math.ceil(width / 768) * Math.ceil(height / 768);
}

const dimensionCache = new WeakMap<ImageContent, { width: number; height: number } | null>();

/** Images are immutable once in a transcript, so each one's header is read once. */
function cachedDimensions(image: ImageContent): { width: number; height: number } | undefined {
	let size = dimensionCache.get(image);
	if (size === undefined) {
		size = typeof image.data === "string" ? (imageDimensions(image.data) ?? null) : null;
		dimensionCache.set(image, size);
	}
	return size ?? undefined;
}

function sized(width: number, height: number): { width: number; height: number } | undefined {
	return width > 0 && height > 0 ? { width, height } : undefined;
}

/** Decodes the first `maxChars` characters of base64 (a data URL's prefix is skipped). */
function decodeBase64Prefix(data: string, maxChars: number): Uint8Array | undefined {
	const comma = data.startsWith("data:") ? data.indexOf(",") + 1 : 0;
	const length = Math.min(data.length - comma, maxChars) & ~3;
	try {
		const text = atob(data.slice(comma, comma + length));
		const bytes = new Uint8Array(text.length);
		for (let index = 0; index < text.length; index++) bytes[index] = text.charCodeAt(index);
		return bytes;
	} catch {
		return undefined;
	}
}
