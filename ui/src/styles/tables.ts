import { css } from "lit";

/** Data tables: a scrolling wrapper, header cells, row hover and clickable rows. */
export const tableStyles = css`
  .table-wrap {
    overflow-x: auto;
    -webkit-overflow-scrolling: touch;
  }
  table {
    width: 100%;
    border-collapse: collapse;
    font-size: var(--gw-text-sm);
  }
  th {
    text-align: left;
    font-weight: 600;
    color: var(--gw-text-muted);
    font-size: var(--gw-text-xs);
    text-transform: uppercase;
    letter-spacing: 0.04em;
    padding: 10px 12px;
    border-bottom: 1px solid var(--gw-border);
    white-space: nowrap;
    background: var(--gw-surface);
  }
  td {
    padding: 10px 12px;
    border-bottom: 1px solid var(--gw-border);
    vertical-align: middle;
  }
  tr:last-child td {
    border-bottom: none;
  }
  tbody tr:hover td {
    background: var(--gw-surface-2);
  }
  th:first-child,
  td:first-child {
    padding-left: var(--gw-space-5);
  }
  th:last-child,
  td:last-child {
    padding-right: var(--gw-space-5);
  }
  tr.clickable {
    cursor: pointer;
  }
  @media (max-width: 640px) {
    th:first-child,
    td:first-child {
      padding-left: var(--gw-space-4);
    }
    th:last-child,
    td:last-child {
      padding-right: var(--gw-space-4);
    }
  }
  .status-ok {
    color: var(--gw-ok);
    font-weight: 600;
  }
  .status-warn {
    color: var(--gw-warn);
    font-weight: 600;
  }
  .status-bad {
    color: var(--gw-danger);
    font-weight: 600;
  }
  .status-run {
    color: var(--gw-info);
    font-weight: 600;
  }
`;
