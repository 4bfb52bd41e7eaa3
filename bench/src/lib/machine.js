/** The machine line printed with every result: absolute times only mean something next to it. */
import { cpus, totalmem } from "node:os";

/** @returns {{ cpu: string, cores: number, memoryGiB: number, node: string, platform: string }} */
export function machineInfo() {
	const list = cpus();
	return {
		cpu: (list[0]?.model ?? "unknown").trim(),
		cores: list.length,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		node: process.version,
		platform: `${process.platform}-${process.arch}`,
	};
}

/** "AMD EPYC, 2 cores, 24 GiB, Node v20.20.2 (linux-x64)" @param {ReturnType<typeof machineInfo>} m */
export function machineLine(m) {
	return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node} (${m.platform})`;
}
