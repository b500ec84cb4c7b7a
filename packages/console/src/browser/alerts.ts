/// <reference lib="dom" />
import type { Api } from './api.js';
import { type AlertRule, type AlertState, describeCondition, describeState } from './alert-rules.js';
import { byId, type Field } from './fields.js';
import { showError } from './status.js';

/**
 * The alerts panel: the selected field's alert rules with whether each holds (docs/interface.md
 * §12), and a frost rule added in one click; their triggered and cleared events are in the
 * selected field's feed, tagged with the field.
 */
export class AlertsPanel {
  private field: Field | null = null;

  constructor(private readonly api: Api) {
    byId('alert-add-frost').addEventListener('click', () => void this.addFrost());
  }

  async showField(field: Field | null): Promise<void> {
    this.field = field;
    const list = byId('alerts');
    byId<HTMLButtonElement>('alert-add-frost').disabled = field === null;
    if (!field) {
      list.replaceChildren(item('Select a field to see its alerts.'));
      return;
    }
    try {
      const rules = (await this.api.json<AlertRule[]>('alerts', '/rules')).filter((r) => r.target.id === field.id);
      const states = await Promise.all(rules.map((r) => this.api.json<AlertState>('alerts', `/rules/${r.id}/state`)));
      if (this.field?.id !== field.id) return;
      list.replaceChildren(
        ...(rules.length === 0
          ? [item('No alerts on this field.')]
          : rules.map((r, i) => {
              const li = item(`${r.description || describeCondition(r.condition)} · ${describeState(states[i]!)}`);
              li.dataset.id = r.id;
              li.dataset.holding = String(states[i]!.holding);
              return li;
            })),
      );
      list.dataset.state = 'loaded';
    } catch (err) {
      showError(err);
    }
  }

  private async addFrost(): Promise<void> {
    const field = this.field;
    if (!field) return;
    try {
      await this.api.json('alerts', '/rules', {
        method: 'POST',
        body: {
          description: `Frost on ${field.description || 'the field'}`,
          target: { type: 'field', id: field.id },
          condition: { kind: 'frost', threshold: 0, hours: 48 },
        },
      });
      await this.showField(field);
    } catch (err) {
      showError(err);
    }
  }
}

function item(text: string): HTMLLIElement {
  return Object.assign(document.createElement('li'), { textContent: text });
}
