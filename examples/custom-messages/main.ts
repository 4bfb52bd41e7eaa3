/**
 * Custom messages: an app keeps its own message types in the agent's transcript.
 *
 * - A `notification` is UI-only: rendered for the user, never sent to the model.
 * - An `artifact` is a document the app shows as a card; the model sees it as a user message.
 *
 * Both are declared once by declaration merging; from then on `AgentMessage` includes them,
 * `switch (message.role)` narrows to them, and `convertToLlm` is the one place that decides what
 * the model sees. Runs offline on the scripted faux provider:
 *
 *   npx tsx examples/custom-messages/main.ts                       (after `pnpm build`)
 *   npx tsx --conditions=development examples/custom-messages/main.ts   (from source, no build)
 */
import { Agent, type AgentMessage, defaultConvertToLlm } from "@pi/agent-core";
import { fauxAssistantMessage, fauxToolCall, type Message, registerFauxProvider } from "@pi/ai";
import { Type } from "@pi/ai/schema";

// 1. Declare the app's messages. Each needs a `role` that the LLM roles do not use.
interface NotificationMessage {
	role: "notification";
	level: "info" | "warning";
	text: string;
	timestamp: number;
}

interface ArtifactMessage {
	role: "artifact";
	title: string;
	body: string;
	timestamp: number;
}

declare module "@pi/agent-core" {
	interface CustomAgentMessages {
		notification: NotificationMessage;
		artifact: ArtifactMessage;
	}
}

// 2. Render every kind of message. The switch is exhaustive: a new message type that is not
//    handled here is a compile error at `never`.
function render(message: AgentMessage): string {
	switch (message.role) {
		case "notification":
			return `  (${message.level}) ${message.text}`;
		case "artifact":
			return `  ┌─ artifact: ${message.title}\n${message.body
				.split("\n")
				.map((line) => `  │ ${line}`)
				.join("\n")}\n  └─`;
		case "user":
			return `you: ${typeof message.content === "string" ? message.content : message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("")}`;
		case "assistant": {
			const parts = message.content.map((block) =>
				block.type === "text" ? block.text : block.type === "toolCall" ? `[calls ${block.name}(${JSON.stringify(block.arguments)})]` : "",
			);
			return `assistant: ${parts.join(" ")}`;
		}
		case "toolResult":
			return `  tool ${message.toolName} → ${message.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("")}`;
		case "compactionSummary":
			return `  (summary of the earlier conversation) ${message.summary}`;
		default: {
			const unhandled: never = message;
			return unhandled;
		}
	}
}

// 3. The boundary: notifications are dropped, artifacts become user messages the model can read.
function convertToLlm(messages: AgentMessage[]): Message[] {
	return defaultConvertToLlm(
		messages.flatMap((message): AgentMessage[] => {
			if (message.role === "notification") return [];
			if (message.role === "artifact") {
				return [{ role: "user", content: `[Artifact "${message.title}"]\n${message.body}`, timestamp: message.timestamp }];
			}
			return [message];
		}),
	);
}

// A tool that drafts a document; the app turns its result into an artifact message.
const draftParams = Type.Object({ title: Type.String(), steps: Type.Array(Type.String()) });
const draftPlan = {
	name: "draft_plan",
	label: "Draft plan",
	description: "Drafts a numbered plan and shows it to the user.",
	parameters: draftParams,
	execute: async (_toolCallId: string, args: { title: string; steps: string[] }) => {
		const body = args.steps.map((step, index) => `${index + 1}. ${step}`).join("\n");
		return { content: [{ type: "text" as const, text: `Drafted ${args.title}.` }], details: { title: args.title, body } };
	},
};

// The scripted model: it calls the tool, then answers, checking it saw the artifact and not the notification.
const faux = registerFauxProvider();
faux.setResponses([
	fauxAssistantMessage([fauxToolCall("draft_plan", { title: "release.md", steps: ["Freeze the branch", "Run the tests", "Tag v1.0"] })]),
	(context) => {
		const seen = context.messages.map((message) => (typeof message.content === "string" ? message.content : ""));
		const sawArtifact = seen.some((text) => text.startsWith('[Artifact "release.md"]'));
		const sawNotification = seen.some((text) => text.includes("Connected"));
		return fauxAssistantMessage(
			sawArtifact && !sawNotification
				? "The plan is in release.md: three steps, starting with freezing the branch."
				: "Something went wrong: I did not get the artifact.",
		);
	},
]);

const agent = new Agent({
	initialState: { model: faux.getModel(), systemPrompt: "You plan releases.", tools: [draftPlan] },
	convertToLlm,
});

// Print each message as it is completed, and turn each drafted plan into an artifact message.
// `steer` delivers it before the next model call, right after the tool result.
agent.subscribe((event) => {
	if (event.type === "message_end") console.log(render(event.message));
	if (event.type === "tool_execution_end" && event.toolName === "draft_plan" && !event.isError) {
		const { title, body } = event.result.details as { title: string; body: string };
		agent.steer({ role: "artifact", title, body, timestamp: Date.now() });
	}
});

const connected: NotificationMessage = { role: "notification", level: "info", text: `Connected to ${faux.getModel().id}.`, timestamp: Date.now() };
await agent.prompt([connected, { role: "user", content: "Plan the 1.0 release.", timestamp: Date.now() }]);

const transcriptRoles = agent.state.messages.map((message) => message.role);
const modelRoles = convertToLlm(agent.state.messages).map((message) => message.role);
console.log(`\ntranscript: ${transcriptRoles.join(", ")}`);
console.log(`the model sees: ${modelRoles.join(", ")}`);
faux.unregister();
if (agent.state.errorMessage) {
	console.error(`error: ${agent.state.errorMessage}`);
	process.exitCode = 1;
}
