import { CliError } from "../cli-error.js";
export async function sessionsCommand(_argv: string[]): Promise<number> {
	throw new CliError("not yet");
}
