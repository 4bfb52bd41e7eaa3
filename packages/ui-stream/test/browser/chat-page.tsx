// The browser side of the Chromium test: an ordinary useChat page, as an app would write it.
// It talks to /api/chat (createAgentUIStreamResponse) with the default transport.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, isToolUIPart, lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from "ai";
import { useState } from "react";
import { createRoot } from "react-dom/client";

function Part({ part, onApproval }: { part: UIMessage["parts"][number]; onApproval: (id: string, approved: boolean) => void }) {
	if (part.type === "text") return <p>{part.text}</p>;
	if (!isToolUIPart(part)) return null;
	const name = part.type.slice("tool-".length);
	return (
		<section aria-label={`tool ${name}`}>
			<code>
				{name} {JSON.stringify(part.input)}
			</code>{" "}
			<output>{part.state}</output>
			{part.state === "output-available" ? <pre>{String(part.output)}</pre> : null}
			{part.state === "approval-requested" ? (
				<span>
					<button type="button" onClick={() => onApproval(part.approval.id, true)}>
						Approve
					</button>
					<button type="button" onClick={() => onApproval(part.approval.id, false)}>
						Deny
					</button>
				</span>
			) : null}
		</section>
	);
}

function Chat() {
	const { messages, sendMessage, addToolApprovalResponse, status } = useChat({
		transport: new DefaultChatTransport({ api: "/api/chat" }),
		sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
	});
	const [text, setText] = useState("");
	return (
		<main>
			<ol aria-label="messages">
				{messages.map((message) => (
					<li key={message.id} aria-label={message.role}>
						{message.parts.map((part, index) => (
							<Part key={index} part={part} onApproval={(id, approved) => void addToolApprovalResponse({ id, approved })} />
						))}
					</li>
				))}
			</ol>
			<form
				onSubmit={(event) => {
					event.preventDefault();
					void sendMessage({ text });
					setText("");
				}}
			>
				<input aria-label="message" value={text} onChange={(event) => setText(event.target.value)} />
				<button type="submit">Send</button>
			</form>
			<p role="status" aria-label="chat status">
				{status}
			</p>
		</main>
	);
}

createRoot(document.getElementById("root") as HTMLElement).render(<Chat />);
