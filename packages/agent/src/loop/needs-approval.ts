import { guard } from "./run-failure.js";
import type { AgentMessage, AgentTool } from "../types.js";

/**
 * Whether this call of `tool` must wait for a person: `needsApproval` as a flag, or its
 * predicate's answer for the validated `args`. A predicate that throws fails the run with a
 * `RunFailure` naming `needsApproval`.
 */
export async function toolNeedsApproval(tool: AgentTool<any>, toolCallId: string, args: unknown, messages: AgentMessage[]): Promise<boolean> {
	const needsApproval = tool.needsApproval;
	if (typeof needsApproval !== "function") return needsApproval === true;
	return (await guard("needsApproval", () => needsApproval(args, { toolCallId, messages }))) === true;
}
