import { css } from "lit";

/** Buttons, inputs, selects, switches and labels, as every gw- element shows them. */
export const controlStyles = css`
  button,
  .btn {
    font: inherit;
    font-size: var(--gw-text-sm);
    font-weight: 550;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    height: 34px;
    padding: 0 14px;
    border-radius: var(--gw-radius-sm);
    border: 1px solid var(--gw-border-strong);
    background: var(--gw-surface);
    color: var(--gw-text);
    cursor: pointer;
    transition: background var(--gw-transition), border-color var(--gw-transition), color var(--gw-transition);
    white-space: nowrap;
    text-decoration: none;
  }
  button:hover,
  .btn:hover {
    background: var(--gw-surface-2);
    text-decoration: none;
  }
  button:focus-visible,
  .btn:focus-visible,
  input:focus-visible,
  select:focus-visible,
  textarea:focus-visible {
    outline: none;
    box-shadow: var(--gw-focus);
  }
  button:disabled {
    opacity: 0.55;
    cursor: not-allowed;
  }
  button.primary,
  .btn.primary {
    background: var(--gw-accent);
    border-color: var(--gw-accent);
    color: var(--gw-accent-text);
  }
  button.primary:hover,
  .btn.primary:hover {
    background: var(--gw-accent-hover);
    border-color: var(--gw-accent-hover);
  }
  button.danger {
    color: var(--gw-danger);
  }
  button.danger:hover {
    background: var(--gw-danger-soft);
    border-color: var(--gw-danger);
  }
  button.danger-solid {
    background: var(--gw-danger);
    border-color: var(--gw-danger);
    color: #fff;
  }
  button.ghost {
    border-color: transparent;
    background: transparent;
  }
  button.ghost:hover {
    background: var(--gw-surface-2);
  }
  button.sm,
  .btn.sm {
    height: 28px;
    padding: 0 10px;
    font-size: var(--gw-text-xs);
  }
  button.icon {
    width: 34px;
    padding: 0;
  }
  button.icon.sm {
    width: 28px;
  }
  button svg,
  .btn svg {
    width: 16px;
    height: 16px;
    flex: none;
  }

  input,
  select,
  textarea {
    font: inherit;
    font-size: var(--gw-text-md);
    color: var(--gw-text);
    background: var(--gw-surface);
    border: 1px solid var(--gw-border-strong);
    border-radius: var(--gw-radius-sm);
    padding: 7px 10px;
    width: 100%;
    min-width: 0;
    transition: border-color var(--gw-transition);
  }
  textarea {
    resize: vertical;
    min-height: 72px;
    line-height: 1.45;
  }
  input:hover,
  select:hover,
  textarea:hover {
    border-color: var(--gw-text-faint);
  }
  input[aria-invalid="true"],
  select[aria-invalid="true"],
  textarea[aria-invalid="true"] {
    border-color: var(--gw-danger);
  }
  input[type="checkbox"],
  input[type="radio"] {
    width: auto;
    accent-color: var(--gw-accent);
  }
  input.switch {
    appearance: none;
    -webkit-appearance: none;
    width: 36px;
    height: 20px;
    padding: 0;
    border-radius: 999px;
    background: var(--gw-surface-3);
    border: 1px solid var(--gw-border-strong);
    position: relative;
    cursor: pointer;
    flex: none;
  }
  input.switch::after {
    content: "";
    position: absolute;
    top: 2px;
    left: 2px;
    width: 14px;
    height: 14px;
    border-radius: 50%;
    background: #fff;
    box-shadow: 0 1px 2px rgba(0,0,0,.3);
    transition: transform var(--gw-transition);
  }
  input.switch:checked {
    background: var(--gw-accent);
    border-color: var(--gw-accent);
  }
  input.switch:checked::after {
    transform: translateX(16px);
  }
  input.switch:disabled {
    opacity: .5;
    cursor: not-allowed;
  }
  label {
    font-size: var(--gw-text-sm);
    font-weight: 550;
  }
  .check {
    display: inline-flex;
    align-items: center;
    gap: 8px;
    font-weight: 500;
    cursor: pointer;
  }
`;
