// Whose console the tab shows: the ids the Alibaba Cloud console puts in its page global
// ALIYUN_CONSOLE_CONFIG (MAIN_ACCOUNT_PK, CURRENT_PK, ACCOUNT_TYPE). Runs in the page's own world
// and reads nothing else; null fields when the page is not a signed-in console.
(() => {
  const config = window.ALIYUN_CONSOLE_CONFIG || {};
  const text = (value) => (value === undefined || value === null ? null : String(value));
  return {
    main_account: text(config.MAIN_ACCOUNT_PK),
    current: text(config.CURRENT_PK),
    account_type: text(config.ACCOUNT_TYPE),
  };
})();
