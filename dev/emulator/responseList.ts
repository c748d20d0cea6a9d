/**
 * GET /agent-responses: every run the emulator made (execute, stream and chat completions), as a
 * Laravel page. Filters as the public client uses them: `agent_id`, `root_id` (every turn of one
 * session), `q` (text in the agent's title, the run's input or its output) and `sort` (`desc`,
 * newest first, the default; or `asc`).
 */
import { findAgent } from './agents';
import { responseJson } from './runEngine';
import {
	json,
	laravelPage,
	lenientPositiveInt,
	listPerPage,
	matchesQ,
	parseId,
	validation,
} from './http';
import type { Ctx, Reply } from './http';

function idFilter(raw: string | undefined, field: string): number | null {
	if (raw === undefined || raw === '') return null;
	const id = parseId(raw.trim());
	if (id === null)
		throw validation(field, `The ${field.replace(/_/g, ' ')} field must be an integer.`);
	return id;
}

export function listResponses(ctx: Ctx): Reply {
	const { q } = ctx.query;
	const sort = (ctx.query.sort ?? 'desc').toLowerCase();
	if (sort !== 'asc' && sort !== 'desc') throw validation('sort', 'The selected sort is invalid.');
	const agentId = idFilter(ctx.query.agent_id, 'agent_id');
	if (agentId !== null) findAgent(ctx, String(agentId));
	const rootId = idFilter(ctx.query.root_id, 'root_id');
	const page = lenientPositiveInt(ctx.query.page, 1);
	const perPage = listPerPage(ctx);
	const agents = ctx.core.state.agents;
	const items = [...ctx.core.state.runs.values()]
		.filter((r) => agentId === null || r.template_id === agentId)
		.filter((r) => rootId === null || r.root_id === rootId)
		.filter((r) => matchesQ(q, agents.get(r.template_id)?.title, r.input, r.output))
		.sort((a, b) => (sort === 'asc' ? a.id - b.id : b.id - a.id))
		.map(responseJson);
	return json(200, laravelPage(ctx, items, page, perPage));
}
