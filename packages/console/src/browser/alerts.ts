/// <reference lib="dom" />
import { type Api, changedMeanwhile } from './api.js';
import { type AlertRule, type AlertState, describeCondition, describeState, frostRuleOn, holdsFrostRule } from './alert-rules.js';
import type { Field } from './field-records.js';
import { button, byId } from './fields.js';
import { PanelView } from './panel-view.js';
import { showError, showMessage } from './status.js';

/**
 * The alerts panel: the selected field's alert rules with whether each holds (docs/interface.md
 * §12), a frost rule added in one click, and a rule deleted once confirmed; their triggered and
 * cleared events are in the selected field's feed, tagged with the field.
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
    // enabled once the field's rules say whether it has a frost rule already
    const frost = byId<HTMLButtonElement>('alert-add-frost');
    frost.disabled = true;
    frost.title = '';
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
    // Offered once a field (decision 0526); while the rules are unknown, the area decides.
    const held = holdsFrostRule(
      (shown.answer ?? []).map(({ rule }) => rule),
      field.id,
    );
    frost.disabled = held;
    frost.title = held ? 'This field has a frost alert already' : '';
    const items = (shown.answer ?? []).map(({ rule, state }) => {
      const li = item(`${ruleName(rule)} · ${describeState(state)}`);
      li.dataset.id = rule.id;
      li.dataset.holding = String(state.holding);
      // The name begins with the button's word (WCAG 2.2, 2.5.3 Label in Name), then names the rule.
      li.append(
        ' ',
        button('Delete', () => void this.remove(field, rule.id), `Delete ${ruleName(rule)}`),
      );
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

  /**
   * Deletes the rule once the person confirms it as it is now: read again with its ETag, and
   * deleted only in that version (If-Match, docs/interface.md §1, Concurrent changes), so a rule
   * someone else changed meanwhile is not deleted unseen. Either way the list is read again.
   */
  private async remove(field: Field, id: string): Promise<void> {
    try {
      const { body: rule, etag } = await this.api.versioned<AlertRule>('alerts', `/rules/${id}`);
      if (!confirm(`Delete the alert rule ${ruleName(rule)}?`)) return;
      await this.api.json('alerts', `/rules/${id}`, { method: 'DELETE', ifMatch: etag ?? undefined });
      showMessage(`Alert rule ${ruleName(rule)} deleted`, 'info');
    } catch (err) {
      if (changedMeanwhile(err))
        showMessage('Someone else changed this alert rule meanwhile: it was not deleted; the rules are shown as they are now.');
      else showError(err);
    }
    // not if another field was selected meanwhile: its rules are shown
    if (this.field?.id === field.id) await this.showField(field);
  }

  private async addFrost(): Promise<void> {
    const field = this.field;
    if (!field) return;
    // not twice while the first is on its way (decision 0526)
    const frost = byId<HTMLButtonElement>('alert-add-frost');
    frost.disabled = true;
    try {
      await this.api.json('alerts', '/rules', {
        method: 'POST',
        body: frostRuleOn(field.id),
      });
    } catch (err) {
      showError(err);
    }
    if (this.field?.id === field.id) await this.showField(field);
  }
}

/** A rule as the list names it: its description, or its condition when it has none. */
function ruleName(rule: AlertRule): string {
  return rule.description || describeCondition(rule.condition);
}

function item(text: string): HTMLLIElement {
  return Object.assign(document.createElement('li'), { textContent: text });
}
