import type { Knex } from 'knex';

/**
 * The statements of the events release before migration `009_receivers`, written out as it ran
 * them, which its replicas still run beside the new ones during a rolling update
 * (docs/decisions/0419-migrations-keep-the-previous-release-working.md): the schema must keep
 * taking them until a later migration contracts it.
 */
export const previousRelease = (knex: Knex, schema = 'events') => ({
  /** POST /subscriptions: the row without `receiver`, which that release did not know */
  async createSubscription(row: { id: string; accountId: string; url: string; now: Date; secret?: string }): Promise<void> {
    await knex
      .withSchema(schema)
      .table('subscriptions')
      .insert({
        id: row.id,
        account_id: row.accountId,
        url: row.url,
        filter: JSON.stringify({ namespaces: ['agriculture/fields'] }),
        description: '',
        secret: row.secret ?? `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
        status: 'validating',
        status_message: null,
        created_at: row.now,
        updated_at: row.now,
      });
  },

  /** a passed handshake: the rate kept on the subscription */
  async recordValidation(id: string, allowedRate: number | null): Promise<void> {
    await knex
      .withSchema(schema)
      .table('subscriptions')
      .where({ id, status: 'validating' })
      .update({ status: 'active', status_message: null, lease_until: null, allowed_rate: allowedRate });
  },

  /** a Retry-After: the hold kept on the subscription */
  async hold(id: string, heldUntil: Date): Promise<void> {
    await knex.raw(`update ${schema}.subscriptions set held_until = greatest(held_until, :heldUntil) where id = :id`, { heldUntil, id });
  },

  /** the dispatcher's claim, paced and held per subscription */
  async claimDeliveries(now: Date, leaseUntil: Date, limit: number, perSubscription: number): Promise<{ id: string; url: string }[]> {
    const { rows } = await knex.raw(
      `with due as (
         select d.id, d.subscription_id, d.next_attempt_at, d.seq, s.allowed_rate from ${schema}.deliveries d
         join ${schema}.subscriptions s on s.id = d.subscription_id and s.status = 'active'
           and (s.held_until is null or s.held_until <= :now)
         where d.status = 'pending' and d.next_attempt_at <= :now and (d.lease_until is null or d.lease_until <= :now)
           and not exists (select from ${schema}.deliveries p
                           where p.subscription_id = d.subscription_id and p.order_key = d.order_key and p.status = 'pending' and p.seq < d.seq)),
       busy as (
         select subscription_id, count(*) as n from ${schema}.deliveries
         where status = 'pending' and lease_until > :now and subscription_id in (select subscription_id from due)
         group by subscription_id),
       ranked as (
         select due.id, due.next_attempt_at, due.seq, due.allowed_rate,
           row_number() over (partition by due.subscription_id order by due.next_attempt_at, due.seq) as rank,
           coalesce(busy.n, 0) as busy
         from due left join busy using (subscription_id)),
       picked as (
         select d.id, d.subscription_id from ${schema}.deliveries d join ranked r on r.id = d.id
         join ${schema}.subscriptions s on s.id = d.subscription_id and (s.held_until is null or s.held_until <= :now)
         where r.rank + r.busy <= :perSubscription and (r.allowed_rate is null or r.rank = 1)
         order by r.next_attempt_at, r.seq
         limit :limit
         for update of d skip locked
         for no key update of s skip locked),
       paced as (
         update ${schema}.subscriptions s
         set held_until = greatest(s.held_until, :now::timestamptz + ceil(60000000.0 / s.allowed_rate) * interval '1 microsecond')
         where s.allowed_rate is not null and s.id in (select subscription_id from picked)
         returning s.id, s.held_until)
       update ${schema}.deliveries d set lease_until = :leaseUntil
       from picked, ${schema}.subscriptions s
       where d.id = picked.id and s.id = d.subscription_id
       returning d.id, d.event_id, d.body, d.attempt_count, d.first_attempt_at, d.subscription_id, s.url, s.secret,
         case when s.previous_secret_expires_at > :now then s.previous_secret end as previous_secret,
         (select paced.held_until from paced where paced.id = d.subscription_id) as paced_until`,
      { now, leaseUntil, limit, perSubscription },
    );
    return rows;
  },
});
