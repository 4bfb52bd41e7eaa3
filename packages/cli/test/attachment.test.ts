import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadFixture, sseResponse } from "@pi/ai/testing";
import { expect, it } from "vitest";
import { detectImageType } from "../src/attachment.js";
import { runCli } from "./helpers/run-cli.js";
import { useCliTestContext } from "./helpers/cli-test-context.js";

// A 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");

const cli = useCliTestContext();

it("-a FILE sends the image with the prompt, typed by its bytes", async () => {
	writeFileSync(join(cli.home.dir, "pixel.dat"), PNG); // the name says nothing: the bytes say PNG
	cli.server.enqueue(sseResponse(loadFixture("anthropic-messages", "text-basic")));
	const result = await runCli(["-a", "pixel.dat", "-m", "anthropic/claude-haiku-4-5", "--base-url", cli.server.url, "What is this?"], {
		env: cli.home.env({ ANTHROPIC_API_KEY: "k" }),
		cwd: cli.home.dir,
	});
	expect(result.code).toBe(0);
	const body = cli.server.requests[0]?.json as { messages: { role: string; content: { type: string; source?: { media_type: string; data: string } }[] }[] };
	const image = body.messages[0]?.content.find((block) => block.type === "image");
	expect(image?.source).toMatchObject({ media_type: "image/png", data: PNG.toString("base64") });
});

it("refuses an image for a model that reads only text", async () => {
	writeFileSync(join(cli.home.dir, "pixel.png"), PNG);
	const result = await runCli(["-a", "pixel.png", "-m", "deepseek/deepseek-chat", "Hi"], { env: cli.home.env({ DEEPSEEK_API_KEY: "k" }), cwd: cli.home.dir });
	expect(result.code).toBe(2);
	expect(result.stderr).toContain("deepseek/deepseek-chat does not accept images");
});

it("detects PNG, JPEG, GIF and WebP by their first bytes, and nothing else", () => {
	expect(detectImageType(PNG)).toBe("image/png");
	expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
	expect(detectImageType(Buffer.from("GIF89a"))).toBe("image/gif");
	expect(detectImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
	expect(detectImageType(Buffer.from("RIFF\0\0\0\0WAVEfmt "))).toBeUndefined();
	expect(detectImageType(Buffer.from("%PDF-1.7"))).toBeUndefined();
});
