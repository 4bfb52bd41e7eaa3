import type { ImageContent } from "@pi/ai";

/**
 * Image headers built byte by byte, so that tests know each image's true pixel size. Only the
 * header matters to the estimator; `padding` bytes make the base64 text as long as a real image.
 */
function image(bytes: number[], mimeType: string, padding = 0): ImageContent {
	const all = Uint8Array.from([...bytes, ...new Array<number>(padding).fill(0x41)]);
	return { type: "image", mimeType, data: Buffer.from(all).toString("base64") };
}

const u32be = (value: number) => [(value >>> 24) & 255, (value >>> 16) & 255, (value >>> 8) & 255, value & 255];
const u16be = (value: number) => [(value >>> 8) & 255, value & 255];
const u16le = (value: number) => [value & 255, (value >>> 8) & 255];
const u24le = (value: number) => [value & 255, (value >>> 8) & 255, (value >>> 16) & 255];
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

export function png(width: number, height: number, padding = 0): ImageContent {
	return image([0x89, ...ascii("PNG"), 0x0d, 0x0a, 0x1a, 0x0a, ...u32be(13), ...ascii("IHDR"), ...u32be(width), ...u32be(height), 8, 6, 0, 0, 0, 0, 0, 0, 0], "image/png", padding);
}

/** A JPEG with an APP1 (EXIF-like) segment of `exifBytes` before its frame header. */
export function jpeg(width: number, height: number, exifBytes = 0): ImageContent {
	return image(
		[0xff, 0xd8, 0xff, 0xe1, ...u16be(exifBytes + 2), ...new Array<number>(exifBytes).fill(0x11), 0xff, 0xc2, ...u16be(17), 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1],
		"image/jpeg",
		64,
	);
}

export function gif(width: number, height: number): ImageContent {
	return image([...ascii("GIF89a"), ...u16le(width), ...u16le(height), 0, 0, 0], "image/gif", 16);
}

export function webp(width: number, height: number): ImageContent {
	return image([...ascii("RIFF"), 0, 0, 0, 0, ...ascii("WEBP"), ...ascii("VP8X"), 10, 0, 0, 0, 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)], "image/webp", 16);
}
