/**
 * Agents: GET /agents (q, type, page, per_page; Laravel envelope), GET /agents/{id}, and the
 * agent file set: POST /agents/{id}/files, GET /agents/{id}/files, DELETE /agents/{a}/files/{f}.
 */
import { fileJson } from './files';
import {
	json,
	laravelPage,
	lenientPositiveInt,
	listPerPage,
	matchesQ,
	notFound,
	parseId,
	required,
	validation,
} from './http';
import type { Ctx, Reply } from './http';
import type { StoredAgent } from './types';

export function agentJson(a: StoredAgent) {
	return {
		id: a.id,
		title: a.title,
		description: a.description,
		long_description: a.long_description,
		workspace_id: a.workspace_id,
		visibility: a.visibility,
		slug: a.slug,
		active: a.active,
		type: a.type,
		questions: a.questions.map((q) => ({
			...q,
			...(q.options ? { options: [...q.options] } : {}),
		})),
		created_at: a.created_at,
		updated_at: a.updated_at,
		created_by: a.created_by,
	};
}

export function listAgents(ctx: Ctx): Reply {
	const { q, type } = ctx.query;
	const page = lenientPositiveInt(ctx.query.page, 1);
	const perPage = listPerPage(ctx);
	const items = [...ctx.core.state.agents.values()]
		.filter((a) => (type ? a.type === type : true))
		.filter((a) => matchesQ(q, a.title, a.description, a.long_description))
		.sort((a, b) => a.id - b.id)
		.map(agentJson);
	return json(200, laravelPage(ctx, items, page, perPage));
}

export function findAgent(ctx: Ctx, raw: string): StoredAgent {
	const id = parseId(raw);
	const agent = id === null ? undefined : ctx.core.state.agents.get(id);
	if (!agent) throw notFound('Agent not found');
	return agent;
}

export function getAgent(ctx: Ctx): Reply {
	return json(200, agentJson(findAgent(ctx, ctx.params.id)));
}

function agentFiles(ctx: Ctx, agent: StoredAgent) {
	return agent.fileIds.map((id) => ctx.core.state.files.get(id)).filter((f) => f !== undefined);
}

export function linkFiles(ctx: Ctx): Reply {
	const agent = findAgent(ctx, ctx.params.id);
	const body = (ctx.body && typeof ctx.body === 'object' ? ctx.body : {}) as Record<
		string,
		unknown
	>;
	const ids = body.file_ids;
	if (ids === undefined || ids === null || (Array.isArray(ids) && ids.length === 0))
		throw required('file_ids');
	if (!Array.isArray(ids)) throw validation('file_ids', 'The file ids field must be an array.');
	const parsed = ids.map((v, i) => {
		const id = typeof v === 'number' ? v : typeof v === 'string' ? parseId(v) : null;
		if (id === null || !ctx.core.state.files.has(id))
			throw validation(`file_ids.${i}`, `The selected file_ids.${i} is invalid.`);
		return id;
	});
	for (const id of parsed) if (!agent.fileIds.includes(id)) agent.fileIds.push(id);
	const files = agentFiles(ctx, agent);
	const completed = files.filter((f) => f.status === 'completed').length;
	return json(200, {
		id: agent.id,
		files: files.map(fileJson),
		files_count: {
			total: files.length,
			completed,
			failed: 0,
			in_progress: files.length - completed,
		},
		status: 'completed',
	});
}

export function listAgentFiles(ctx: Ctx): Reply {
	const agent = findAgent(ctx, ctx.params.id);
	return json(200, {
		id: agent.id,
		files: agentFiles(ctx, agent).map(fileJson),
		status: 'completed',
	});
}

export function unlinkFile(ctx: Ctx): Reply {
	const agent = findAgent(ctx, ctx.params.id);
	const fileId = parseId(ctx.params.fileId);
	const file = fileId === null ? undefined : ctx.core.state.files.get(fileId);
	if (fileId === null || !file || !agent.fileIds.includes(fileId)) throw notFound('File not found');
	agent.fileIds = agent.fileIds.filter((x) => x !== fileId);
	return json(200, { id: agent.id, file: fileJson(file), removed: true });
}
