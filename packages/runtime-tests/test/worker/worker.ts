// A Cloudflare Worker (module syntax) that streams one request from the replay server named in
// its query string and answers with the final assistant message as JSON.
import { Agent } from "@pi/agent-core";
import { type Api, stream } from "@pi/ai";
import { replayModel } from "../models.js";

export default {
	async fetch(request: Request): Promise<Response> {
		const url = new URL(request.url);
		const origin = url.searchParams.get("replay") ?? "";
		const api = (url.searchParams.get("api") ?? "openai-completions") as Api;
		const s = stream(replayModel(api, origin), { messages: [{ role: "user", content: "Hello", timestamp: 0 }] }, { apiKey: "worker-test-key" });
		const events: string[] = [];
		for await (const event of s) events.push(event.type);
		const message = await s.result();
		// The agent package loads too (its module graph is part of the worker).
		return Response.json({ message, events, agentLoaded: typeof Agent === "function" });
	},
};
