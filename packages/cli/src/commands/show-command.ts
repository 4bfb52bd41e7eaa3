import { CliError } from "../cli-error.js";
export async function showCommand(_argv: string[]): Promise<number> {
	throw new CliError("not yet");
}
