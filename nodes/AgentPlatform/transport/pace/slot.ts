/** A request's place in the pace once it may be sent. */
export interface PaceSlot {
	/** Sequence number of the send. */
	readonly seq: number;
	readonly sentAt: number;
}
