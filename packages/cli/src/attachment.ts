/**
 * `-a FILE`: an image read from disk, as an `ImageContent` block. The type comes from the file's
 * first bytes (its magic number), not its name, so a mislabelled file is caught before any request.
 */
import { readFileSync } from "node:fs";
import type { ImageContent } from "@pi/ai";
import { CliError } from "./cli-error.js";

const SIGNATURES: { mimeType: string; test: (bytes: Uint8Array) => boolean }[] = [
	{ mimeType: "image/png", test: (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 },
	{ mimeType: "image/jpeg", test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
	{ mimeType: "image/gif", test: (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38 },
	{
		mimeType: "image/webp",
		test: (b) => b[0] === 0x52 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x46 && b[8] === 0x57 && b[9] === 0x45 && b[10] === 0x42 && b[11] === 0x50,
	},
];

/** The image type of `bytes` (png, jpeg, gif or webp), or `undefined`. */
export function detectImageType(bytes: Uint8Array): string | undefined {
	return SIGNATURES.find((signature) => signature.test(bytes))?.mimeType;
}

/**
 * Reads `path` as an image block. Throws a `CliError` naming the file when it cannot be read or
 * is not a PNG, JPEG, GIF or WebP image.
 *
 * @example
 * const image = readImageAttachment("photo.jpg"); // { type: "image", mimeType: "image/jpeg", data: "…base64…" }
 */
export function readImageAttachment(path: string): ImageContent {
	let bytes: Buffer;
	try {
		bytes = readFileSync(path);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const reason = code === "ENOENT" ? "no such file" : code === "EACCES" ? "permission denied" : code === "EISDIR" ? "it is a folder" : (error as Error).message;
		throw new CliError(`cannot read attachment ${path}: ${reason}`);
	}
	const mimeType = detectImageType(bytes);
	if (!mimeType) throw new CliError(`attachment ${path} is not an image (PNG, JPEG, GIF or WebP)`);
	return { type: "image", mimeType, data: bytes.toString("base64") };
}
