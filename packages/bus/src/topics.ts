/** Topic of one resource kind of one area: `fieldcast.<area>.<resource>` (docs/architecture.md §5). */
export function topicFor(area: string, resourcePlural: string): string {
  return `fieldcast.${area}.${resourcePlural}`;
}

/**
 * Partitions of each topic Fieldcast creates: the most replicas of a consumer group that can each
 * hold a partition of one topic, so the deployments' autoscalers stop there (scripts/deploy).
 */
export const TOPIC_PARTITIONS = 3;

/** Every resource topic has this form; the events service subscribes to the pattern, not a list. */
export const RESOURCE_TOPIC_PATTERN = /^fieldcast\.[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/;

export function parseTopic(topic: string): { area: string; resource: string } | null {
  if (!RESOURCE_TOPIC_PATTERN.test(topic)) return null;
  const [, area, resource] = topic.split('.');
  return { area: area!, resource: resource! };
}
