import { ApiCallError } from "../http/api-call-error.js";
import { type JsonRequest, requestJson } from "../http/request-json.js";

/**
 * What providers answer when a job can no longer be cancelled because it already ended or was
 * cancelled: cancelling must then succeed, since the caller's wish (no job running) holds.
 */
const ALREADY_OVER = /already|cannot be cancel|can ?not cancel|not cancellable|no longer|completed|ended|finished|terminal|cancell?ed/i;

/**
 * Sends one cancel request (the seam retries only failures worth retrying). Resolves when the job
 * is cancelled, or could not be because it is over: a `409`, or a `400` whose message says so.
 * Any other failure rejects with its {@link ApiCallError}.
 */
export async function cancelJob(request: JsonRequest): Promise<void> {
	try {
		// A 409 says the job is over; retrying it would only send more requests.
		await requestJson({ ...request, finalStatuses: [409] });
	} catch (error) {
		if (error instanceof ApiCallError && (error.status === 409 || (error.status === 400 && ALREADY_OVER.test(error.providerMessage ?? error.message)))) return;
		throw error;
	}
}
