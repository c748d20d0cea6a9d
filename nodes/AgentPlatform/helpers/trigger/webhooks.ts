import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { asNodeError } from '../../transport/errors';
import type { PlatformContext } from '../../transport/types';
import { apiRequest } from '../../transport/request';

export interface DeletedWebhook {
	/** False when the platform did not know the webhook (404): it was already gone. */
	deleted: boolean;
	/** The platform's answer to the delete, when there was one. */
	body?: IDataObject;
}

/** POST /agents/{id}/webhooks, for Webhook → Create and the trigger alike: the created webhook. */
export async function createWebhook(
	ctx: PlatformContext,
	agentId: string,
	webhook: { url: string; method: string; status: string },
	itemIndex?: number,
): Promise<IDataObject> {
	return (await apiRequest(ctx, {
		method: 'POST',
		path: `/agents/${agentId}/webhooks`,
		body: webhook,
		resource: `agent ${agentId}`,
		itemIndex,
	})) as IDataObject;
}

/**
 * DELETE /webhooks/{id}, for Webhook → Delete and the trigger alike. A 404 is not an error: the
 * webhook is gone, which is what was wanted. Any other failure is thrown.
 */
export async function deleteWebhook(
	ctx: PlatformContext,
	id: string,
	itemIndex?: number,
): Promise<DeletedWebhook> {
	try {
		const body = (await apiRequest(ctx, {
			method: 'DELETE',
			path: `/webhooks/${id}`,
			resource: `webhook ${id}`,
			itemIndex,
		})) as IDataObject | undefined;
		return { deleted: true, body };
	} catch (error) {
		if (error instanceof NodeApiError && error.httpCode === '404') return { deleted: false };
		throw asNodeError(ctx.getNode(), error, itemIndex);
	}
}
