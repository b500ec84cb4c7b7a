/// <reference lib="dom" />
import type { Api } from './api.js';
import { type AlertRule, type AlertState, describeCondition, describeState, frostRuleOn } from './alert-rules.js';
import type { Field } from './field-records.js';
import { byId } from './fields.js';
import { PanelView } from './panel-view.js';
import { showError } from './status.js';

/**
 * The alerts panel: the selected field's alert rules with whether each holds (docs/interface.md
 * §12), and a frost rule added in one click; their triggered and cleared events are in the
 * selected field's feed, tagged with the field.
 */
export class AlertsPanel {
  private field: Field | null = null;
  /** the rules shown, keyed by their field's id, each with whether it holds */
  private readonly view = new PanelView<{ rule: AlertRule; state: AlertState }[]>();

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
    let shown;
    try {
      const rules = (await this.api.json<AlertRule[]>('alerts', '/rules')).filter((r) => r.target.id === field.id);
      const states = await Promise.all(rules.map((r) => this.api.json<AlertState>('alerts', `/rules/${r.id}/state`)));
      shown = this.view.answered(
        field.id,
        rules.map((rule, i) => ({ rule, state: states[i]! })),
      );
    } catch (err) {
      shown = this.view.failed(field.id, err);
      showError(err);
    }
    if (this.field?.id !== field.id) return;
    const items = (shown.answer ?? []).map(({ rule, state }) => {
      const li = item(`${rule.description || describeCondition(rule.condition)} · ${describeState(state)}`);
      li.dataset.id = rule.id;
      li.dataset.holding = String(state.holding);
      return li;
    });
    if (shown.error !== null) {
      const failed = item(shown.answer ? `Not up to date: ${shown.error}` : shown.error);
      failed.className = 'failed';
      items.unshift(failed);
    } else if (items.length === 0) items.push(item('No alerts on this field.'));
    list.replaceChildren(...items);
    list.dataset.state = shown.error === null ? 'loaded' : 'error';
  }

  private async addFrost(): Promise<void> {
    const field = this.field;
    if (!field) return;
    try {
      await this.api.json('alerts', '/rules', {
        method: 'POST',
        body: frostRuleOn(field.id),
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
