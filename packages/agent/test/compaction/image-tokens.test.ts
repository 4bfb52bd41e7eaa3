import { describe, expect, it } from "vitest";
import { estimateImageTokens, imageDimensions, UNKNOWN_IMAGE_TOKENS } from "../../src/index.js";
import { gif, jpeg, png, webp } from "./images.js";

describe("image sizes are read from the image header", () => {
	it("PNG, JPEG (after an EXIF segment), GIF and WebP", () => {
		expect(imageDimensions(png(1024, 768).data)).toEqual({ width: 1024, height: 768 });
		expect(imageDimensions(jpeg(4032, 3024, 20_000).data)).toEqual({ width: 4032, height: 3024 });
		expect(imageDimensions(gif(320, 200).data)).toEqual({ width: 320, height: 200 });
		expect(imageDimensions(webp(1920, 1080).data)).toEqual({ width: 1920, height: 1080 });
	});

	it("a data URL prefix is skipped; text that is not an image has no size", () => {
		expect(imageDimensions(`data:image/png;base64,${png(10, 20).data}`)).toEqual({ width: 10, height: 20 });
		expect(imageDimensions(Buffer.from("just some text, not an image").toString("base64"))).toBeUndefined();
		expect(imageDimensions("%%% not base64 %%%")).toBeUndefined();
	});
});

describe("image tokens follow each provider's documented rate", () => {
	it("Anthropic: width × height / 750 after fitting the long edge into 1,568 px, at most 1,600", () => {
		expect(estimateImageTokens(png(1000, 1000), "anthropic-messages")).toBe(1334); // the docs' 1000×1000 example
		expect(estimateImageTokens(png(200, 200), "anthropic-messages")).toBe(54);
		expect(estimateImageTokens(png(4000, 3000), "anthropic-messages")).toBe(1600);
	});

	it("OpenAI: 85 + 170 per 512-px tile after fitting into 2048² and the short side into 768", () => {
		expect(estimateImageTokens(png(1024, 1024), "openai-completions")).toBe(765); // the docs' examples
		expect(estimateImageTokens(png(2048, 4096), "openai-responses")).toBe(1105);
		expect(estimateImageTokens(png(100, 100), "openai-completions")).toBe(255);
	});

	it("Gemini: 258 up to 384 × 384, else 258 per 768-px tile", () => {
		expect(estimateImageTokens(png(384, 384), "google-generative-ai")).toBe(258);
		expect(estimateImageTokens(png(1024, 1024), "google-generative-ai")).toBe(1032);
	});

	it("without an API, the highest of the three; an unreadable image counts the cap", () => {
		expect(estimateImageTokens(png(1024, 1024))).toBe(Math.max(1399, 765, 1032));
		expect(estimateImageTokens({ type: "image", mimeType: "image/png", data: "AAAA" })).toBe(UNKNOWN_IMAGE_TOKENS);
	});

	it("the cost does not grow with the length of the base64 text", () => {
		const small = png(800, 600);
		const large = png(800, 600, 1_000_000); // a 1.3 MB base64 string with the same header
		expect(large.data.length).toBeGreaterThan(1_300_000);
		expect(estimateImageTokens(large, "anthropic-messages")).toBe(estimateImageTokens(small, "anthropic-messages"));
		expect(estimateImageTokens(large, "anthropic-messages")).toBe(640);
	});
});
