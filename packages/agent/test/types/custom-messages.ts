/**
 * Type-level test, checked by `tsc -p tsconfig.json` (the `typecheck` script), never run.
 * An app augments `CustomAgentMessages` by declaration merging: its messages join
 * `AgentMessage`, narrow by `role`, and an undeclared role is a compile error.
 */
import type { Message } from "@pi/ai";
import { Agent, type AgentEvent, type AgentMessage, defaultConvertToLlm } from "@pi/agent-core";

interface NotificationMessage {
	role: "notification";
	text: string;
	level: "info" | "warning";
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

// Declared custom messages are agent messages.
const notice: AgentMessage = { role: "notification", text: "Saved.", level: "info", timestamp: 0 };
const artifact: AgentMessage = { role: "artifact", title: "plan.md", body: "# Plan", timestamp: 0 };

// @ts-expect-error: a role nobody declared is not an agent message.
const undeclared: AgentMessage = { role: "telemetry", payload: 1, timestamp: 0 };

// @ts-expect-error: a declared role with the wrong shape is rejected (missing `text` and `level`).
const incomplete: AgentMessage = { role: "notification", timestamp: 0 };

// @ts-expect-error: custom messages are not LLM messages; convertToLlm must convert or drop them.
const notForTheModel: Message = notice;

// Narrowing by role reaches each custom type's own fields.
export function render(message: AgentMessage): string {
	switch (message.role) {
		case "notification":
			return `[${message.level}] ${message.text}`;
		case "artifact":
			return `${message.title}\n${message.body}`;
		case "user":
			return typeof message.content === "string" ? message.content : "(blocks)";
		case "assistant":
			return message.stopReason;
		case "toolResult":
			return message.toolName;
		case "compactionSummary":
			// The built-in summary message of a compacted transcript.
			return message.summary;
		default: {
			// Exhaustive: every role is handled above.
			const never: never = message;
			return never;
		}
	}
}

// The role union is exactly the LLM roles, the built-in compactionSummary, and the declared ones.
type Role = AgentMessage["role"];
const roles: Role[] = ["user", "assistant", "toolResult", "compactionSummary", "notification", "artifact"];
// @ts-expect-error: not a role.
const notARole: Role = "system";

// A convertToLlm that converts one custom message and drops the other type-checks as a Message[].
const agent = new Agent({
	convertToLlm: (messages) =>
		defaultConvertToLlm(
			messages.map((message) =>
				message.role === "artifact" ? { role: "user", content: `${message.title}\n${message.body}`, timestamp: message.timestamp } : message,
			),
		),
});

// Queues and prompts accept custom messages; events carry them.
agent.steer(notice);
agent.followUp(artifact);
void agent.prompt([notice, { role: "user", content: "hi", timestamp: 0 }]);
agent.subscribe((event: AgentEvent) => {
	if (event.type === "message_end" && event.message.role === "notification") {
		const level: "info" | "warning" = event.message.level;
		void level;
	}
});

void [undeclared, incomplete, notForTheModel, roles, notARole];
