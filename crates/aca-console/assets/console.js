// The console's front end: the widgets of the Alibaba Cloud console (div-based selects whose options
// render in a portal, dialogs, drawers, wizards, tabs, hover menus, toasts) and the calls that pages
// make to the product APIs through /console/api and /console/buy.
(function () {
  'use strict';

  // ---- toasts -------------------------------------------------------------------------------
  function toast(message, kind) {
    var box = document.getElementById('toasts');
    if (!box) { box = document.createElement('div'); box.id = 'toasts'; box.className = 'toasts'; document.body.appendChild(box); }
    var t = document.createElement('div');
    t.className = 'toast toast-' + (kind || 'success');
    t.setAttribute('role', kind === 'error' ? 'alert' : 'status');
    t.textContent = message;
    box.appendChild(t);
    setTimeout(function () { t.classList.add('leaving'); }, kind === 'error' ? 6000 : 3000);
    setTimeout(function () { t.remove(); }, kind === 'error' ? 6400 : 3400);
  }

  // ---- the CIDR block input: a custom element with a shadow root -----------------------------
  var CIDR_SUGGESTIONS = ['192.168.0.0/16', '172.16.0.0/12', '10.0.0.0/8'];
  class CidrInput extends HTMLElement {
    constructor() {
      super();
      var root = this.attachShadow({ mode: 'open' });
      root.innerHTML =
        '<style>' +
        ':host{display:flex;flex-wrap:wrap;gap:6px;align-items:center;width:100%}' +
        'input{flex:1 1 180px;height:32px;padding:0 10px;border:1px solid #c4c6cf;border-radius:2px;font:13px Menlo,monospace;box-sizing:border-box}' +
        'input:focus{outline:none;border-color:#0064c8;box-shadow:0 0 0 2px rgba(0,100,200,.15)}' +
        ':host([invalid]) input{border-color:#d93026}' +
        '.tags{display:flex;gap:4px}' +
        'button{height:24px;border:1px solid #dedede;background:#f7f9fa;border-radius:2px;font:12px sans-serif;cursor:pointer;color:#333}' +
        'button:hover{border-color:#0064c8;color:#0064c8}' +
        '</style>' +
        '<input part="input" type="text" autocomplete="off" aria-label="IPv4 CIDR Block" placeholder="e.g. 192.168.0.0/16">' +
        '<span class="tags" part="suggestions"></span>';
      this._input = root.querySelector('input');
      var tags = root.querySelector('.tags');
      var self = this;
      if (!this.hasAttribute('no-suggestions')) {
        CIDR_SUGGESTIONS.forEach(function (c) {
          var b = document.createElement('button');
          b.type = 'button'; b.textContent = c; b.title = 'Use ' + c;
          b.addEventListener('click', function () { self.value = c; self.dispatchEvent(new Event('change', { bubbles: true })); });
          tags.appendChild(b);
        });
      }
      this._input.addEventListener('input', function () { self.dispatchEvent(new Event('input', { bubbles: true, composed: true })); });
      this._input.addEventListener('change', function () { self.dispatchEvent(new Event('change', { bubbles: true })); });
    }
    connectedCallback() { if (this.hasAttribute('value') && !this._input.value) this._input.value = this.getAttribute('value'); }
    get value() { return this._input.value.trim(); }
    set value(v) { this._input.value = v == null ? '' : v; }
    get name() { return this.getAttribute('name'); }
    focus() { this._input.focus(); }
  }
  if (!customElements.get('aca-cidr-input')) customElements.define('aca-cidr-input', CidrInput);

  // ---- div-based selects whose options render in a portal ------------------------------------
  var openPortal = null;
  // Navigation groups fold and unfold, as the console's left-side navigation pane does.
  document.addEventListener('click', function (ev) {
    var label = ev.target.closest && ev.target.closest('.nav-group-label');
    if (!label) return;
    var group = label.parentElement;
    var collapsed = group.classList.toggle('collapsed');
    label.setAttribute('aria-expanded', collapsed ? 'false' : 'true');
  });

  function closePortal() {
    if (!openPortal) return;
    openPortal.portal.remove();
    openPortal.select.querySelector('.ui-select-trigger').setAttribute('aria-expanded', 'false');
    openPortal = null;
  }
  function selectOptions(select) {
    try { return JSON.parse(select.getAttribute('data-options') || '[]'); } catch (e) { return []; }
  }
  function setSelectValue(select, value) {
    var options = selectOptions(select);
    var found = options.find(function (o) { return o[0] === value; });
    var input = select.querySelector('input[type=hidden]');
    var label = select.querySelector('.ui-select-value');
    input.value = found ? found[0] : '';
    if (found) { label.textContent = found[1]; label.classList.remove('placeholder'); }
    select.dispatchEvent(new CustomEvent('ui-change', { bubbles: true, detail: { value: input.value } }));
  }
  function openSelect(select) {
    closePortal();
    var trigger = select.querySelector('.ui-select-trigger');
    var rect = trigger.getBoundingClientRect();
    var portal = document.createElement('div');
    portal.className = 'ui-select-portal';
    portal.setAttribute('role', 'listbox');
    portal.style.left = (rect.left + window.scrollX) + 'px';
    portal.style.top = (rect.bottom + window.scrollY + 4) + 'px';
    portal.style.minWidth = rect.width + 'px';
    var current = select.querySelector('input[type=hidden]').value;
    var options = selectOptions(select);
    if (!options.length) {
      var empty = document.createElement('div');
      empty.className = 'ui-select-empty';
      empty.textContent = 'No data';
      portal.appendChild(empty);
    }
    var heading = null;
    options.forEach(function (o) {
      // An option filed under a heading ([value, label, heading]): the heading comes first.
      if (o[2] && o[2] !== heading) {
        heading = o[2];
        var head = document.createElement('div');
        head.className = 'ui-select-group';
        head.setAttribute('role', 'presentation');
        head.textContent = heading;
        portal.appendChild(head);
      }
      var item = document.createElement('div');
      item.className = 'ui-select-option' + (o[0] === current ? ' selected' : '');
      item.setAttribute('role', 'option');
      item.setAttribute('aria-selected', o[0] === current ? 'true' : 'false');
      item.setAttribute('data-value', o[0]);
      item.textContent = o[1];
      item.addEventListener('mousedown', function (ev) { ev.preventDefault(); });
      item.addEventListener('click', function () { setSelectValue(select, o[0]); closePortal(); clearError(select); });
      portal.appendChild(item);
    });
    document.body.appendChild(portal);
    trigger.setAttribute('aria-expanded', 'true');
    openPortal = { select: select, portal: portal };
  }

  // ---- dialogs, drawers and row context ------------------------------------------------------
  var rowContext = null;
  function openLayer(id, opener) {
    var layer = document.getElementById(id);
    if (!layer) return;
    var row = opener ? opener.closest('[data-row-id]') : null;
    // A panel opened from an open form (the listener wizard's Servers panel) keeps that form's row.
    var nested = !row && opener && opener.closest('.dialog-mask.open, .drawer-mask.open');
    if (!nested) rowContext = row ? { id: row.getAttribute('data-row-id'), item: JSON.parse(row.getAttribute('data-row') || '{}') } : null;
    var form = layer.querySelector('form[data-ui-form]');
    if (form) resetForm(form);
    // Nothing to fill: the call is made as the dialog opens, which then shows its result.
    if (form && form.hasAttribute('data-submit-on-open')) submitForm(form);
    if (form && form.hasAttribute('data-open-call')) openingCall(form);
    var typed = layer.querySelector('[data-confirm-typed]');
    if (typed) { typed.value = ''; setError(typed.closest('.form-item'), ''); }
    var target = layer.querySelector('[data-confirm-target]');
    if (target) {
      if (layer.querySelector('[data-batch]')) target.textContent = selectedIds().join(', ');
      else target.textContent = rowContext ? rowContext.id : '';
    }
    layer.hidden = false;
    layer.classList.add('open');
    var first = layer.querySelector('input:not([type=hidden]), aca-cidr-input, .ui-select-trigger');
    if (first && first.focus) setTimeout(function () { first.focus(); }, 30);
  }
  function closeLayer(layer) {
    closePortal();
    layer.hidden = true;
    layer.classList.remove('open');
  }
  function lookup(item, path) {
    return path.split('.').reduce(function (v, k) { return v == null ? undefined : v[k]; }, item);
  }

  // ---- forms -------------------------------------------------------------------------------
  var RULES = {
    name: function (v) {
      if (!v) return null;
      if (v.length > 128 || !/^[A-Za-z\u4e00-\u9fa5]/.test(v) || /^https?:\/\//.test(v))
        return 'The name must be 1 to 128 characters in length, start with a letter, and cannot start with http:// or https://.';
      return null;
    },
    cidr: function (v) {
      var m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(v);
      if (!m || m.slice(1, 5).some(function (o) { return +o > 255; }) || +m[5] > 32)
        return 'Enter a valid IPv4 CIDR block, for example 192.168.0.0/16.';
      return null;
    },
    password: function (v) {
      if (!v) return null;
      var classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter(function (r) { return r.test(v); }).length;
      if (v.length < 8 || v.length > 30 || classes < 3)
        return 'The password must be 8 to 30 characters in length and contain at least three of the following: uppercase letters, lowercase letters, digits, and special characters.';
      return null;
    },
    username: function (v) {
      return !v || /^[A-Za-z0-9._-]{1,64}$/.test(v) ? null : 'The name can contain only letters, digits, periods (.), hyphens (-), and underscores (_), and can be up to 64 characters in length.';
    },
    domain: function (v) {
      return !v || /^([A-Za-z0-9-]+\.)+[A-Za-z]{2,}$/.test(v) ? null : 'Enter a valid domain name, for example example.com.';
    },
    port: function (v) {
      return !v || (/^\d+$/.test(v) && +v >= 1 && +v <= 65535) ? null : 'Enter a port number from 1 to 65535.';
    },
    number: function (v) { return !v || /^-?\d+$/.test(v) ? null : 'Enter an integer.'; },
    bucket: function (v) {
      return !v || /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/.test(v) ? null : 'The name must be 3 to 63 characters in length, contain only lowercase letters, digits, and hyphens (-), and start and end with a lowercase letter or digit.';
    },
    logstore: function (v) {
      return !v || /^[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]$/.test(v) ? null : 'The name must be 3 to 63 characters in length and contain only lowercase letters, digits, hyphens (-), and underscores (_).';
    },
    // An IP whitelist template's name (RDS, Tair).
    template: function (v) {
      return !v || /^[a-z][a-z0-9_]{0,118}[a-z0-9]$/.test(v) ? null : 'The name must be 2 to 120 characters in length, contain only lowercase letters, digits, and underscores (_), start with a letter, and end with a letter or digit.';
    },
    // IP addresses and CIDR blocks separated by commas.
    ips: function (v) {
      if (!v) return null;
      var ok = v.split(',').every(function (e) {
        var m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(\/(\d{1,2}))?$/.exec(e.trim());
        return m && m.slice(1, 5).every(function (o) { return +o <= 255; }) && (m[6] === undefined || +m[6] <= 32);
      });
      return ok ? null : 'Enter IP addresses or CIDR blocks separated by commas (,), for example 10.0.0.1,192.168.0.0/24.';
    },
    trail: function (v) {
      return !v || /^[a-z][a-z0-9_-]{5,35}$/.test(v) ? null : 'The name must be 6 to 36 characters in length, start with a lowercase letter, and contain only lowercase letters, digits, hyphens (-), and underscores (_).';
    }
  };
  function controlOf(item) {
    return item.querySelector('aca-cidr-input, input:not([type=radio]), textarea') || item.querySelector('input');
  }
  function valueOf(item) {
    var radio = item.querySelector('input[type=radio]:checked');
    if (radio) return radio.value;
    var c = controlOf(item);
    // A check box holds its value only when ticked (a required risk notice to accept).
    if (c && c.type === 'checkbox') return c.checked ? c.value : '';
    return c ? (c.value || '').trim() : '';
  }
  function setError(item, message) {
    var box = item.querySelector('.form-error');
    if (box) box.textContent = message || '';
    item.classList.toggle('has-error', !!message);
    var cidr = item.querySelector('aca-cidr-input');
    if (cidr) { if (message) cidr.setAttribute('invalid', ''); else cidr.removeAttribute('invalid'); }
  }
  function clearError(node) { var item = node.closest('.form-item'); if (item) setError(item, ''); }
  function validateItems(items) {
    var ok = true;
    items.forEach(function (item) {
      var value = valueOf(item);
      var message = null;
      if (item.getAttribute('data-required') === 'true' && !value) message = 'This field is required.';
      var control = item.querySelector('[data-rule]');
      var rule = control && control.getAttribute('data-rule');
      if (!message && rule && RULES[rule]) message = RULES[rule](value);
      setError(item, message);
      if (message) ok = false;
    });
    return ok;
  }
  function visibleItems(form) {
    return Array.prototype.filter.call(form.querySelectorAll('.form-item'), function (item) {
      var copy = item.closest('[data-repeat-copy]');
      if (copy && blankCopy(copy)) return false;
      return !item.closest('[data-step-panel][hidden]') && !item.closest('[data-step-dialog][hidden]') && !item.hidden;
    });
  }
  // An added group (Add User) left empty: neither checked nor sent.
  function blankCopy(copy) {
    return Array.prototype.every.call(copy.querySelectorAll('[name]'), function (el) { return !el.value.trim(); });
  }
  // Fields and wizard steps shown only while another field has a value (`param=value`): the SSL
  // Certificates step of an HTTPS listener, the fields of the certificate source chosen. What is
  // not shown is neither checked nor sent.
  function applies(form, node) {
    var when = node.getAttribute('data-shown-when');
    if (!when) return true;
    var at = when.indexOf('=');
    var name = when.slice(0, at);
    var el = form.querySelector('input[name="' + name + '"]:checked') || form.querySelector('[name="' + name + '"]:not([type=radio])');
    return !!el && el.value === when.slice(at + 1);
  }
  function applyConditions(form) {
    form.querySelectorAll('.form-item[data-shown-when], [data-step-index][data-shown-when]').forEach(function (node) {
      node.hidden = !applies(form, node);
    });
    form.querySelectorAll('[data-step-panel][data-shown-when]').forEach(function (panel) {
      if (applies(form, panel)) panel.removeAttribute('data-skipped'); else panel.setAttribute('data-skipped', '');
    });
  }
  function shownStep(form, from, by) {
    var panels = steps(form);
    for (var i = from + by; i >= 0 && i < panels.length; i += by) if (!panels[i].hasAttribute('data-skipped')) return i;
    return -1;
  }
  function resetForm(form) {
    form.querySelectorAll('.form-item').forEach(function (item) {
      setError(item, '');
      var path = item.getAttribute('data-from-row');
      if (path && rowContext) {
        var v = lookup(rowContext.item, path);
        var radios = item.querySelectorAll('input[type=radio]');
        if (radios.length) {
          radios.forEach(function (r) { r.checked = r.value === String(v); });
          return;
        }
        var c = controlOf(item);
        if (c) c.value = v == null ? '' : v;
      }
    });
    // Groups the reader added (Add User) go.
    form.querySelectorAll('[data-repeat-copy]').forEach(function (copy) { copy.remove(); });
    // A switch such as "Switch to Policy Editor" is off again, its link shown.
    form.querySelectorAll('[data-field-switch]').forEach(function (link) {
      var switched = link.parentNode.querySelector('input[type=hidden]');
      switched.value = switched.defaultValue;
      link.hidden = switched.value === 'on';
    });
    fillGenerated(form);
    followChoices(form);
    applyConditions(form);
    showStep(form, 0);
    var submit = form.querySelector('[data-submit]');
    if (submit) submit.disabled = false;
  }
  // Values the page makes up when the form opens: a rule id, a password that is never shown.
  function fillGenerated(form) {
    form.querySelectorAll('[data-generate]').forEach(function (input) {
      input.value = input.getAttribute('data-generate') === 'password'
        ? 'Aa1!' + Math.random().toString(36).slice(2, 10) + Math.random().toString(36).slice(2, 8)
        : 'rule-' + Math.random().toString(16).slice(2, 10) + Date.now().toString(16);
    });
  }
  // A form that is a page of its own is open from the start.
  document.querySelectorAll('form[data-ui-form]').forEach(function (form) {
    if (!form.closest('.dialog-mask, .drawer-mask')) { fillGenerated(form); applyConditions(form); }
  });
  function steps(form) { return form.querySelectorAll('[data-step-panel]'); }
  function currentStep(form) {
    var panels = steps(form);
    for (var i = 0; i < panels.length; i++) if (!panels[i].hidden) return i;
    return 0;
  }
  function showStep(form, index) {
    var panels = steps(form);
    if (panels.length < 2 || !form.querySelector('[data-step-next]')) return;
    panels.forEach(function (p, i) { p.hidden = i !== index; });
    form.querySelectorAll('[data-step-index]').forEach(function (t) {
      var i = +t.getAttribute('data-step-index');
      t.classList.toggle('current', i === index);
      t.classList.toggle('done', i < index);
    });
    var last = shownStep(form, index, 1) < 0;
    form.querySelector('[data-step-prev]').hidden = index === 0;
    form.querySelector('[data-step-next]').hidden = last;
    form.querySelector('[data-submit]').hidden = !last;
    if (last) {
      var summary = form.querySelector('[data-summary]');
      if (summary && !summary.querySelector('dl')) {
        var dl = document.createElement('dl');
        dl.className = 'descriptions';
        summary.appendChild(dl);
      }
      if (summary) {
        var list = summary.querySelector('dl');
        list.innerHTML = '';
        form.querySelectorAll('.form-item').forEach(function (item) {
          if (item.hidden || item.closest('[data-skipped]')) return;
          var label = item.getAttribute('data-ui-field');
          var select = item.querySelector('.ui-select-value');
          var radio = item.querySelector('input[type=radio]:checked');
          var text = select && !select.classList.contains('placeholder') ? select.textContent : radio ? radio.parentNode.textContent : valueOf(item);
          if (item.querySelector('input[type=password]')) text = text ? '********' : '';
          var row = document.createElement('div');
          row.className = 'desc-item';
          var dt = document.createElement('dt'); dt.textContent = label;
          var dd = document.createElement('dd'); dd.textContent = text || '-';
          row.appendChild(dt); row.appendChild(dd);
          list.appendChild(row);
        });
      }
    }
  }
  // A field's value as sent: trimmed (content as typed), with its suffix and prefix.
  function fieldValue(el) {
    var v = el.hasAttribute('data-raw') && el.value.trim() !== '' ? el.value : (el.value || '').trim();
    var suffix = el.getAttribute('data-suffix');
    if (v !== '' && suffix && v.slice(-suffix.length) !== suffix) v += suffix;
    var prefix = el.getAttribute('data-prefix');
    if (v !== '' && prefix && v.indexOf(prefix) !== 0) v = prefix + v;
    return v;
  }
  // A parameter the reader names (User Metadata): [name with its prefix, value], or null.
  function namedParameter(box) {
    var prefix = box.getAttribute('data-named-parameter');
    var name = box.value.trim();
    var value = box.parentNode.querySelector('[data-named-value]').value.trim();
    var colon = name.indexOf(':');
    if (value === '' && colon > 0) { value = name.slice(colon + 1).trim(); name = name.slice(0, colon).trim(); }
    if (name === '' || value === '') return null;
    name = name.toLowerCase();
    return [name.indexOf(prefix) === 0 ? name : prefix + name, value];
  }
  // A field the form's own call does not send: a section that is a call of its own, a field or
  // step the form hides.
  function outsideTheCall(el) {
    return !!el.closest('[data-then], .form-item[hidden], [data-skipped]');
  }
  // `copy`: a copy of a repeated group (Add User) whose values replace those of the group's fields.
  function collect(form, copy) {
    var params = {};
    var fixed = JSON.parse(form.getAttribute('data-fixed') || '[]');
    fixed.forEach(function (p) { params[p[0]] = p[1]; });
    form.querySelectorAll('[name]').forEach(function (el) {
      if ((el.type === 'radio' || el.type === 'checkbox') && !el.checked) return;
      if (el.hasAttribute('data-not-sent') || outsideTheCall(el) || el.closest('[data-repeat-copy]')) return;
      var v = fieldValue(el);
      if (v !== '') params[el.getAttribute('name')] = v;
    });
    if (copy) copy.querySelectorAll('[name]').forEach(function (el) {
      var v = fieldValue(el);
      if (v !== '') params[el.getAttribute('name')] = v;
      else delete params[el.getAttribute('name')];
    });
    form.querySelectorAll('[data-named-parameter]').forEach(function (box) {
      if (outsideTheCall(box)) return;
      var named = namedParameter(box);
      if (named) params[named[0]] = named[1];
    });
    var idParam = form.getAttribute('data-id-param');
    if (idParam && rowContext) params[idParam] = rowContext.id;
    // A parameter composed of nothing (Keep Current Password Unchanged) is not sent.
    JSON.parse(form.getAttribute('data-compose') || '[]').forEach(function (c) {
      var v = compose(form, c[1]);
      if (v !== '') params[c[0]] = v;
    });
    return params;
  }
  // A parameter the console writes from the fields (sent or not): {Param} is a field's value,
  // {account} the signed-in account's id and {region} the console's region. A value the console
  // itself offers (a choice, a fixed parameter) may hold such a template in turn ({account},
  // {OtherAccountId}); what the reader typed and what rows hold never is: "{Password}" typed in a
  // box stays as typed.
  // A section that is a call of its own (`scope`) reads its own fields first, then the form's,
  // its fixed parameters and the id of the row it was opened from.
  function compose(scope, template) {
    var values = {};
    var offered = {};
    var form = scope.tagName === 'FORM' ? scope : scope.closest('form');
    var take = function (root, skipSections) {
      root.querySelectorAll('[name]').forEach(function (el) {
        if ((el.type === 'radio' || el.type === 'checkbox') && !el.checked) return;
        if (skipSections && el.closest('[data-then]')) return;
        if (el.closest('[data-repeat-copy]')) return;
        // A field its form hides (another choice's) has no value to give.
        if (el.closest('.form-item[hidden]')) return;
        var name = el.getAttribute('name');
        values[name] = fieldValue(el);
        offered[name] = el.type === 'radio' || el.type === 'checkbox';
      });
    };
    if (form) {
      JSON.parse(form.getAttribute('data-fixed') || '[]').forEach(function (p) {
        values[p[0]] = p[1];
        offered[p[0]] = true;
      });
      var idParam = form.getAttribute('data-id-param');
      if (idParam && rowContext) values[idParam] = rowContext.id;
      take(form, true);
    }
    if (scope !== form) take(scope, false);
    var config = window.ALIYUN_CONSOLE_CONFIG || {};
    // {A|B}: A's value, or B's where A has none.
    var fill = function (text, nested) {
      return text.replace(/\{([A-Za-z0-9_|.]+)\}/g, function (m, names) {
        var found = names.split('|').map(function (name) {
          if (name === 'account') return String(config.MAIN_ACCOUNT_PK || '');
          // {region}: the region the console is in (the top navigation bar's selector).
          if (name === 'region') return document.body.getAttribute('data-region') || '';
          // {folder}: the folder a list of folders shows (empty at the top).
          if (name === 'folder') return new URLSearchParams(location.search).get('dir') || '';
          // {row.Field}: the field of the row the form was opened from.
          if (name.indexOf('row.') === 0) {
            var v = rowContext ? lookup(rowContext.item, name.slice(4)) : null;
            return v == null ? '' : String(v);
          }
          if (!(name in values)) return '';
          return offered[name] && !nested ? fill(values[name], true) : values[name];
        }).filter(function (v) { return v !== ''; });
        return found.length ? found[0] : '';
      });
    };
    return fill(template, false);
  }
  function withRegion(params) {
    var region = document.body.getAttribute('data-region');
    if (region && !document.querySelector('.region-global') && !params.RegionId) params.RegionId = region;
    return params;
  }
  function post(url, params) {
    return fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'Accept': 'application/json' },
      body: JSON.stringify(withRegion(params))
    }).then(function (res) {
      return res.json().catch(function () { return {}; }).then(function (body) { return { ok: res.ok, body: body }; });
    });
  }
  function showApiError(form, body) {
    var message = (body && (body.Message || body.Code)) || 'The operation failed.';
    var m = /parameter "([^"]+)"/.exec(message);
    if (form && m) {
      var item = form.querySelector('.form-item[data-param="' + m[1] + '"]');
      if (item) setError(item, message);
    }
    toast((body && body.Code ? body.Code + ': ' : '') + message, 'error');
  }
  // Sections that are calls of their own (the vSwitch of the Create VPC page) run after the form's
  // call, in order, with parameters carried over from its response.
  function followUps(form, first) {
    var base = form.getAttribute('data-url').replace(/\/[^/]*$/, '/');
    var chain = Promise.resolve({ ok: true });
    form.querySelectorAll('[data-then]').forEach(function (section) {
      // A section whose check box is not ticked (Console Access left off), or whose field is empty
      // or hidden (no server picked), makes no call.
      var gate = section.getAttribute('data-then-if');
      if (gate && !gateOpen(form, gate)) return;
      // A section made once for each value of one of its fields (the instances a template is
      // associated with), keeping what each item already has.
      var each = section.getAttribute('data-then-each');
      if (each) {
        var input = section.querySelector('[name="' + each + '"]');
        var keep = JSON.parse(section.getAttribute('data-then-keep') || 'null');
        (input ? input.value.split(',') : []).map(function (v) { return v.trim(); }).filter(Boolean).forEach(function (item) {
          chain = chain.then(function (prev) {
            if (!prev.ok) return prev;
            var params = carried(section, first);
            params[each] = item;
            var read = {};
            read[each] = item;
            var kept = keep ? post(base + keep.action, read) : Promise.resolve({ ok: true, body: {} });
            return kept.then(function (r) {
              if (!r.ok) return r;
              if (keep) {
                var had = (lookup(r.body, keep.items_path) || []).map(function (x) { return x[keep.field]; });
                params[keep.param] = had.concat(String(params[keep.param] || '').split(',')).filter(function (v, i, all) {
                  return v && all.indexOf(v) === i;
                }).join(',');
              }
              return post(base + section.getAttribute('data-then'), params);
            }).then(function (r) { r.section = section; return r; });
          });
        });
        return;
      }
      chain = chain.then(function (prev) {
        if (!prev.ok) return prev;
        var params = {};
        // Carried from the form's response, by a dotted path (`User.UserName`).
        JSON.parse(section.getAttribute('data-carry') || '[]').forEach(function (c) {
          params[c[0]] = c[1].split('.').reduce(function (v, key) { return v == null ? v : v[key]; }, first);
        });
        section.querySelectorAll('[name]').forEach(function (el) {
          if ((el.type === 'radio' || el.type === 'checkbox') && !el.checked) return;
          if (el.hasAttribute('data-not-sent')) return;
          var v = (el.value || '').trim();
          if (v !== '') params[el.getAttribute('name')] = v;
        });
        JSON.parse(section.getAttribute('data-compose') || '[]').forEach(function (c) { params[c[0]] = compose(section, c[1]); });
        return post(base + section.getAttribute('data-then'), params).then(function (r) {
          r.section = section;
          return r;
        });
      });
    });
    return chain;
  }
  function gateOpen(form, name) {
    var el = form.querySelector('[name="' + name + '"]');
    if (!el || el.closest('.form-item[hidden], [data-skipped]')) return false;
    if (el.type === 'checkbox' || el.type === 'radio') return el.checked;
    return (el.value || '').trim() !== '';
  }
  // What a section's own call carries over from the form's response, by a dotted path.
  function carried(section, first) {
    var params = {};
    JSON.parse(section.getAttribute('data-carry') || '[]').forEach(function (c) {
      params[c[0]] = c[1].split('.').reduce(function (v, key) { return v == null ? v : v[key]; }, first);
    });
    return params;
  }
  // A form that makes a call as it opens (Enable the Virtual MFA Device makes the device): what
  // it shows of the response is filled in, what it sends on is kept in hidden fields, and the
  // form can be submitted once the call has answered.
  function openingCall(form) {
    var values = collect(form);
    var params = {};
    JSON.parse(form.getAttribute('data-open-params') || '[]').forEach(function (p) {
      params[p[0]] = p[1].replace(/\{([A-Za-z0-9_]+)\}/g, function (m, name) {
        return values[name] == null ? '' : String(values[name]);
      });
    });
    var submit = form.querySelector('[data-submit]');
    if (submit) submit.disabled = true;
    form.querySelectorAll('[data-opened-show]').forEach(function (el) {
      if (el.getAttribute('data-shown') === 'qr') el.textContent = '';
      else el.textContent = '-';
    });
    form.querySelectorAll('[data-opened-compose]').forEach(function (el) {
      el.textContent = compose(form, el.getAttribute('data-opened-compose'));
    });
    var base = form.getAttribute('data-url').replace(/\/[^/]*$/, '/');
    post(base + form.getAttribute('data-open-call'), params).then(function (r) {
      if (!r.ok) { showApiError(form, r.body); return; }
      if (submit) submit.disabled = false;
      form.querySelectorAll('[data-opened-show]').forEach(function (el) {
        var v = lookup(r.body, el.getAttribute('data-opened-show'));
        if (el.getAttribute('data-shown') === 'qr') {
          // The response's Base64 PNG, drawn as the image an authenticator app's camera reads.
          var img = document.createElement('img');
          img.alt = el.getAttribute('aria-label') || '';
          img.src = 'data:image/png;base64,' + (v == null ? '' : String(v));
          el.appendChild(img);
          el.setAttribute('data-loaded', '');
        } else el.textContent = v == null ? '-' : String(v);
      });
      form.querySelectorAll('[data-opened-carry]').forEach(function (el) {
        var v = lookup(r.body, el.getAttribute('data-opened-carry'));
        el.value = v == null ? '' : String(v);
      });
    }).catch(function () {
      toast('The network is unavailable. Try again later.', 'error');
    });
  }
  function submitForm(form) {
    if (!validateItems(visibleItems(form))) {
      // A closed panel's fields are wrong or missing: said beside the button that opens it.
      form.querySelectorAll('.subpanel[hidden]').forEach(function (sub) {
        if (!sub.querySelector('.has-error')) return;
        var summary = form.querySelector('[data-fold-summary="' + sub.id + '"]');
        if (!summary) return;
        summary.classList.add('form-error');
        summary.setAttribute('role', 'alert');
        summary.textContent = 'This section is required.';
      });
      return;
    }
    var submit = form.querySelector('[data-submit]');
    submit.disabled = true;
    submit.classList.add('loading');
    var send = function (copy) {
      // The operation may depend on a field ({ListenerProtocol}: the listener's protocol picks it).
      return post(compose(form, form.getAttribute('data-url')), collect(form, copy)).then(function (r) {
        if (!r.ok) return r;
        return followUps(form, r.body).then(function (next) { return next.ok ? r : next; });
      });
    };
    var sent;
    if (form.hasAttribute('data-batch-form')) {
      // Opened from the bar below the list: once for each ticked row, stopping at the first error.
      sent = Promise.resolve({ ok: true });
      selectedIds().forEach(function (id) {
        sent = sent.then(function (prev) {
          if (!prev.ok) return prev;
          var item = rowItem(id);
          rowContext = { id: id, item: item };
          return send();
        });
      });
    } else {
      // Then once for each group the reader added (Add User), stopping at the first error.
      sent = send();
      form.querySelectorAll('[data-repeat-copy]').forEach(function (copy) {
        if (blankCopy(copy)) return;
        sent = sent.then(function (prev) { return prev.ok ? send(copy) : prev; });
      });
    }
    sent.then(function (r) {
      submit.disabled = false;
      submit.classList.remove('loading');
      if (!r.ok) { showApiError(r.section || form, r.body); return; }
      if (form.hasAttribute('data-finish')) { showResult(form, r.body); return; }
      toast(form.getAttribute('data-success') || 'The operation is successful.');
      var layer = form.closest('.dialog-mask, .drawer-mask');
      if (layer) closeLayer(layer);
      var done = form.getAttribute('data-done');
      // The list is refreshed after the toast: the page says it is busy until then.
      document.body.setAttribute('aria-busy', 'true');
      setTimeout(function () { if (done) location.href = done; else location.reload(); }, 900);
    }).catch(function () {
      submit.disabled = false;
      toast('The network is unavailable. Try again later.', 'error');
    });
  }

  // A panel that fills a list of the page that opened it (the Servers panel of the Create vServer
  // Group page): what it composes under the list's parameter (a JSON array) joins the list, which
  // the page sends as one JSON array; nothing is called.
  function pickInto(form) {
    if (!validateItems(visibleItems(form))) return;
    var name = form.getAttribute('data-pick-into');
    // The list of the form whose button opened this panel (two forms of a page may pick servers).
    var layer = form.closest('.dialog-mask, .drawer-mask');
    var opener = layer && document.querySelector('[data-open="' + layer.id + '"]');
    var holder = opener && opener.closest('.picked');
    if (!holder) return;
    var input = holder.querySelector('input[data-picked]');
    var list = input.value ? JSON.parse(input.value) : [];
    JSON.parse(collect(form)[name] || '[]').forEach(function (item) { list.push(item); });
    input.value = list.length ? JSON.stringify(list) : '';
    var shown = holder.querySelector('[data-picked-list]');
    shown.innerHTML = '';
    list.forEach(function (item) {
      var li = document.createElement('li');
      li.className = 'picked-item';
      li.textContent = Object.keys(item).map(function (k) { return k + ': ' + item[k]; }).join(' | ');
      shown.appendChild(li);
    });
    clearError(input);
    closeLayer(form.closest('.dialog-mask, .drawer-mask'));
  }

  // A form whose dialog or panel stays open on success shows the result in place of its fields,
  // with the one button that closes it.
  function showResult(form, response) {
    var body = form.querySelector('.dialog-body');
    var footer = form.querySelector('.dialog-footer');
    body.hidden = true;
    footer.hidden = true;
    var result = document.createElement('div');
    result.className = 'dialog-body form-result';
    var message = document.createElement('p');
    message.className = 'result-success';
    message.textContent = form.getAttribute('data-success') || 'The operation is successful.';
    result.appendChild(message);
    var bar = document.createElement('div');
    bar.className = 'dialog-footer';
    // What the response created, shown this once (a new AccessKey pair), to copy or download.
    var shows = JSON.parse(form.getAttribute('data-shows') || '[]');
    if (shows.length) {
      var list = document.createElement('dl');
      list.className = 'desc-list';
      var values = shows.map(function (s) {
        var v = lookup(response || {}, s[1]);
        var row = document.createElement('div');
        row.className = 'desc-item';
        var dt = document.createElement('dt'); dt.textContent = s[0];
        var dd = document.createElement('dd'); dd.textContent = v == null ? '-' : String(v);
        row.appendChild(dt); row.appendChild(dd);
        list.appendChild(row);
        return [s[0], v == null ? '' : String(v)];
      });
      result.appendChild(list);
      var csv = values.map(function (p) { return p[0]; }).join(',') + '\n' + values.map(function (p) { return p[1]; }).join(',') + '\n';
      var download = document.createElement('button');
      download.type = 'button';
      download.className = 'btn';
      download.textContent = 'Download CSV File';
      download.addEventListener('click', function () {
        var a = document.createElement('a');
        a.href = URL.createObjectURL(new Blob([csv], { type: 'text/csv' }));
        a.download = 'AccessKey.csv';
        a.click();
      });
      var copy = document.createElement('button');
      copy.type = 'button';
      copy.className = 'btn';
      copy.textContent = 'Copy';
      copy.addEventListener('click', function () {
        if (navigator.clipboard) navigator.clipboard.writeText(csv).catch(function () {});
        toast('Copied.');
      });
      bar.appendChild(download);
      bar.appendChild(copy);
    }
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'btn btn-primary';
    close.textContent = form.getAttribute('data-finish');
    close.addEventListener('click', function () {
      var layer = form.closest('.dialog-mask, .drawer-mask');
      if (layer) closeLayer(layer);
      var done = form.getAttribute('data-done');
      if (done) location.href = done; else location.reload();
    });
    bar.appendChild(close);
    form.insertBefore(result, footer);
    form.insertBefore(bar, footer);
  }

  // ---- confirmed calls and batch operations ---------------------------------------------------
  function selectedIds() {
    return Array.prototype.map.call(document.querySelectorAll('.row-check:checked'), function (c) { return c.value; });
  }
  // The row item of each id a call acts on: the row it was opened from, or the selected rows.
  function rowItem(id) {
    if (rowContext && rowContext.id === id) return rowContext.item;
    var row = Array.prototype.find.call(document.querySelectorAll('tr[data-row-id]'), function (r) { return r.getAttribute('data-row-id') === id; });
    return row ? JSON.parse(row.getAttribute('data-row') || '{}') : {};
  }
  function runCall(button) {
    var action = button.getAttribute('data-call');
    var idParam = button.getAttribute('data-id-param');
    var fixed = JSON.parse(button.getAttribute('data-fixed') || '[]');
    var fromRow = JSON.parse(button.getAttribute('data-from-row') || '[]');
    var byRow = JSON.parse(button.getAttribute('data-by-row') || 'null');
    var ids = button.hasAttribute('data-batch') ? selectedIds() : rowContext ? [rowContext.id] : [];
    // "Enter the name of the RAM role": the call waits until the row's id is typed.
    var typed = button.closest('.dialog').querySelector('[data-confirm-typed]');
    if (typed && typed.value.trim() !== (ids[0] || '')) {
      setError(typed.closest('.form-item'), 'Enter ' + (ids[0] || 'the name') + ' to confirm.');
      return;
    }
    var product = document.body.getAttribute('data-product');
    button.disabled = true;
    var chain = Promise.resolve({ ok: true });
    // A row of a list that is one configuration (lifecycle rules): save the other rows instead.
    var prefix = button.getAttribute('data-config-prefix');
    if (prefix && rowContext) {
      var params = {};
      fixed.forEach(function (p) { params[p[0]] = p[1]; });
      var n = 0;
      document.querySelectorAll('[data-ui-table] tr[data-row-id]').forEach(function (row) {
        if (row.getAttribute('data-row-id') === rowContext.id) return;
        n += 1;
        flatten(prefix + '.' + n, JSON.parse(row.getAttribute('data-row') || '{}'), params);
      });
      if (n === 0) action = button.getAttribute('data-config-clear');
      chain = post('/console/api/' + product + '/' + action, params);
      ids = [];
    }
    ids.forEach(function (id) {
      chain = chain.then(function (prev) {
        if (!prev.ok) return prev;
        var item = rowItem(id);
        var op = action, param = idParam;
        if (byRow) {
          var value = String(lookup(item, byRow[0]));
          byRow[1].forEach(function (v) { if (v.value === value) { op = v.action; param = v.id_param; } });
        }
        var params = {};
        fixed.forEach(function (p) { params[p[0]] = p[1]; });
        fromRow.forEach(function (p) { var v = lookup(item, p[1]); if (v != null) params[p[0]] = String(v); });
        params[param] = id;
        return post('/console/api/' + product + '/' + op, params);
      });
    });
    chain.then(function (r) {
      button.disabled = false;
      closeLayer(button.closest('.dialog-mask'));
      if (!r.ok) { showApiError(null, r.body); return; }
      toast('The operation is successful.');
      document.body.setAttribute('aria-busy', 'true');
      setTimeout(function () { location.reload(); }, 900);
    });
  }
  function flatten(path, value, out) {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      value.forEach(function (v, i) { flatten(path + '.' + (i + 1), v, out); });
    } else if (typeof value === 'object') {
      Object.keys(value).forEach(function (k) { flatten(path + '.' + k, value[k], out); });
    } else {
      out[path] = String(value);
    }
  }
  function updateBatch() {
    var n = selectedIds().length;
    document.querySelectorAll('[data-batch-button]').forEach(function (b) { b.disabled = n === 0; });
  }

  // ---- menus: the row's More menu, its submenus, the details page's All Actions pane ------------
  function closeMenu(menu) {
    menu.classList.remove('open');
    var trigger = menu.querySelector('[aria-expanded]');
    if (trigger) trigger.setAttribute('aria-expanded', 'false');
    menu.querySelectorAll('.submenu.open').forEach(closeMenu);
  }
  function toggleMenu(trigger, menu) {
    if (menu.classList.contains('open')) { closeMenu(menu); return; }
    // Opening one submenu closes its siblings, as a menu does.
    var parent = menu.parentNode;
    if (parent) Array.prototype.forEach.call(parent.children, function (m) { if (m !== menu && m.classList.contains('open')) closeMenu(m); });
    menu.classList.add('open');
    trigger.setAttribute('aria-expanded', 'true');
  }
  // Typing in the All Actions pane's search box keeps the actions whose names contain the text.
  document.addEventListener('input', function (ev) {
    var search = ev.target;
    if (!search.classList || !search.classList.contains('all-actions-search')) return;
    var text = search.value.trim().toLowerCase();
    search.closest('.all-actions-pane').querySelectorAll('[data-ui-action]').forEach(function (item) {
      var wrap = item.closest('.tooltip-wrap') || item;
      wrap.hidden = text !== '' && item.textContent.toLowerCase().indexOf(text) < 0;
    });
  });

  // The switches that turned on to open a panel the user cancelled turn off again.
  function switchesOff(layer) {
    document.querySelectorAll('[role=switch][data-turned-on]').forEach(function (sw) {
      if (sw.getAttribute('data-open') !== layer.id) return;
      sw.setAttribute('aria-checked', 'false');
      sw.classList.remove('on');
      sw.removeAttribute('data-turned-on');
    });
  }

  // ---- event wiring --------------------------------------------------------------------------
  document.addEventListener('click', function (ev) {
    var t = ev.target;
    var trigger = t.closest('.ui-select-trigger');
    if (trigger) {
      var select = trigger.closest('.ui-select');
      if (openPortal && openPortal.select === select) closePortal(); else openSelect(select);
      return;
    }
    if (!t.closest('.ui-select-portal')) closePortal();
    // A transfer list: an item clicked moves to the other side; the selected ones are the value.
    var moved = t.closest('.transfer-item');
    if (moved) {
      var transfer = moved.closest('[data-transfer]');
      var side = moved.closest('[data-transfer-side]').getAttribute('data-transfer-side');
      transfer.querySelector('[data-transfer-side="' + (side === 'available' ? 'selected' : 'available') + '"]').appendChild(moved);
      var chosen = Array.prototype.map.call(
        transfer.querySelectorAll('[data-transfer-side="selected"] .transfer-item'),
        function (b) { return b.getAttribute('data-value'); });
      transfer.querySelector('input[type=hidden]').value = chosen.join(',');
      clearError(moved);
      return;
    }
    // Load Local Public IP Address: the address the console sees this browser at joins the list.
    var loader = t.closest('[data-adds-client-ip]');
    if (loader) {
      var box = loader.closest('.form-item').querySelector('[name="' + loader.getAttribute('data-adds-client-ip') + '"]');
      fetch('/console/client-ip', { credentials: 'same-origin' })
        .then(function (r) { if (!r.ok) throw new Error('HTTP ' + r.status); return r.json(); })
        .then(function (body) {
          var listed = box.value.split(',').map(function (v) { return v.trim(); }).filter(Boolean);
          if (listed.indexOf(body.ip) < 0) listed.push(body.ip);
          box.value = listed.join(',');
          box.dispatchEvent(new Event('input', { bubbles: true }));
        })
        .catch(function (e) { toast('The public IP address could not be loaded: ' + e.message, 'error'); });
      return;
    }
    var opener = t.closest('[data-open]');
    if (opener && !opener.disabled && opener.getAttribute('aria-disabled') !== 'true') {
      ev.preventDefault();
      // A switch turned on stays on while its panel is open; cancelled, it turns off again.
      if (opener.getAttribute('role') === 'switch' && opener.getAttribute('aria-checked') !== 'true') {
        opener.setAttribute('aria-checked', 'true');
        opener.classList.add('on');
        opener.setAttribute('data-turned-on', '');
      }
      document.querySelectorAll('.hover-menu.open, .all-actions-menu.open').forEach(closeMenu);
      openLayer(opener.getAttribute('data-open'), opener);
      return;
    }
    if (t.closest('[data-close]')) {
      var layer = t.closest('.dialog-mask, .drawer-mask');
      if (layer) { switchesOff(layer); closeLayer(layer); }
      return;
    }
    if (t.classList && (t.classList.contains('dialog-mask') || t.classList.contains('drawer-mask'))) { switchesOff(t); closeLayer(t); return; }
    var call = t.closest('[data-call]');
    if (call) { runCall(call); return; }
    // A folded section set in a panel of its own (an alert rule's Configure Rule Description):
    // opened from its button or from an item of its drop-down menu, which picks a value in it.
    var openSub = t.closest('[data-open-subpanel]');
    if (openSub) {
      var subpanel = document.getElementById(openSub.getAttribute('data-open-subpanel'));
      var param = openSub.getAttribute('data-set-param');
      if (subpanel && param) {
        subpanel.querySelectorAll('input[name="' + param + '"]').forEach(function (r) {
          r.checked = r.value === openSub.getAttribute('data-set-value');
        });
      }
      document.querySelectorAll('.hover-menu.open').forEach(closeMenu);
      if (subpanel) {
        subpanel.hidden = false;
        var first = subpanel.querySelector('input:not([type=radio]):not([type=hidden]), textarea');
        if (first) first.focus();
      }
      return;
    }
    var closeSub = t.closest('[data-close-subpanel]');
    if (closeSub) {
      var shut = document.getElementById(closeSub.getAttribute('data-close-subpanel'));
      if (!shut || !validateItems(Array.prototype.slice.call(shut.querySelectorAll('.form-item')))) return;
      shut.hidden = true;
      var summary = document.querySelector('[data-fold-summary="' + shut.id + '"]');
      if (summary) {
        var firstItem = shut.querySelector('.form-item');
        summary.removeAttribute('role');
        summary.classList.remove('form-error');
        summary.textContent = firstItem ? firstItem.getAttribute('data-ui-field') + ': ' + valueOf(firstItem) : '';
      }
      return;
    }
    var cancelSub = t.closest('[data-cancel-subpanel]');
    if (cancelSub) {
      var dropped = document.getElementById(cancelSub.getAttribute('data-cancel-subpanel'));
      if (dropped) dropped.hidden = true;
      return;
    }
    var unfold = t.closest('[data-unfold]');
    if (unfold) {
      var folded = document.getElementById(unfold.getAttribute('data-unfold'));
      if (folded) folded.hidden = false;
      unfold.hidden = true;
      return;
    }
    var next = t.closest('[data-step-next]');
    if (next) {
      var form = next.closest('form');
      var i = currentStep(form);
      var panel = steps(form)[i];
      var items = Array.prototype.filter.call(panel.querySelectorAll('.form-item'), function (item) { return !item.hidden; });
      if (validateItems(items)) showStep(form, shownStep(form, i, 1));
      return;
    }
    var prev = t.closest('[data-step-prev]');
    if (prev) { var f = prev.closest('form'); showStep(f, Math.max(0, shownStep(f, currentStep(f), -1))); return; }
    // Add User: the group's fields once more, empty, before the button.
    var repeatAdd = t.closest('[data-repeat-add]');
    if (repeatAdd) {
      var copy = repeatAdd.parentNode.querySelector('[data-repeat]').cloneNode(true);
      copy.removeAttribute('data-repeat');
      copy.setAttribute('data-repeat-copy', '');
      copy.querySelectorAll('[name]').forEach(function (el) { el.value = ''; });
      copy.querySelectorAll('.form-item').forEach(function (item) { setError(item, ''); });
      repeatAdd.parentNode.insertBefore(copy, repeatAdd);
      return;
    }
    // A link that turns a view on: its field's hidden input becomes "on" and the link goes.
    var fieldSwitch = t.closest('[data-field-switch]');
    if (fieldSwitch) {
      var switched = fieldSwitch.parentNode.querySelector('input[type=hidden]');
      switched.value = 'on';
      fieldSwitch.hidden = true;
      switched.dispatchEvent(new Event('change', { bubbles: true }));
      return;
    }
    // A choice shown as tabs: the tab's value goes into the field's hidden input.
    var fieldTab = t.closest('[data-field-tab]');
    if (fieldTab) {
      var list = fieldTab.closest('[role=tablist]');
      list.querySelectorAll('[data-field-tab]').forEach(function (x) {
        var on = x === fieldTab;
        x.classList.toggle('active', on);
        x.setAttribute('aria-selected', on ? 'true' : 'false');
      });
      var input = list.parentNode.querySelector('input[type=hidden]');
      input.value = fieldTab.getAttribute('data-field-tab');
      input.dispatchEvent(new Event('change', { bubbles: true }));
      return;
    }
    var tab = t.closest('[data-tab]');
    if (tab) {
      // Keys are `1` or, for the tabs inside a tab, `0.1`: a click switches its own level only.
      var index = tab.getAttribute('data-tab');
      var level = index.slice(0, index.lastIndexOf('.') + 1);
      var sameLevel = function (key) { return key.slice(0, key.lastIndexOf('.') + 1) === level; };
      document.querySelectorAll('[data-tab]').forEach(function (x) {
        if (!sameLevel(x.getAttribute('data-tab'))) return;
        var on = x.getAttribute('data-tab') === index;
        x.classList.toggle('active', on);
        x.setAttribute('aria-selected', on ? 'true' : 'false');
      });
      document.querySelectorAll('[data-tab-panel]').forEach(function (p) {
        var key = p.getAttribute('data-tab-panel');
        if (sameLevel(key)) p.hidden = key !== index;
      });
      return;
    }
    var sub = t.closest('.submenu-trigger');
    if (sub) { toggleMenu(sub, sub.parentNode); return; }
    var more = t.closest('.more-trigger');
    if (more) { toggleMenu(more, more.parentNode); return; }
    var all = t.closest('.all-actions-trigger');
    if (all) {
      toggleMenu(all, all.parentNode);
      var search = all.parentNode.querySelector('.all-actions-search');
      if (search && all.parentNode.classList.contains('open')) search.focus();
      return;
    }
    document.querySelectorAll('.hover-menu.open, .submenu.open, .all-actions-menu.open').forEach(function (m) {
      if (!m.contains(t)) closeMenu(m);
    });
  });
  document.addEventListener('keydown', function (ev) {
    if (ev.key === 'Escape') {
      if (openPortal) { closePortal(); return; }
      var open = document.querySelector('.dialog-mask.open, .drawer-mask.open');
      if (open) closeLayer(open);
    }
    if ((ev.key === 'Enter' || ev.key === ' ') && ev.target.classList && ev.target.classList.contains('ui-select-trigger')) {
      ev.preventDefault();
      openSelect(ev.target.closest('.ui-select'));
    }
  });
  document.addEventListener('submit', function (ev) {
    var form = ev.target;
    if (form.hasAttribute('data-ui-form')) {
      ev.preventDefault();
      var next = form.querySelector('[data-step-next]');
      if (next && !next.hidden) { next.click(); return; }
      if (form.hasAttribute('data-pick-into')) { pickInto(form); return; }
      // A panel that only shows values (an object's details) makes no call.
      if (!form.getAttribute('data-url')) { closeLayer(form.parentNode); return; }
      // A page whose last step is a dialog of its own (Create Role): the page's fields first.
      var dialog = form.querySelector('[data-step-dialog][hidden]');
      if (dialog) {
        if (!validateItems(visibleItems(form))) return;
        dialog.hidden = false;
        dialog.classList.add('open');
        var first = dialog.querySelector('input:not([type=hidden])');
        if (first) setTimeout(function () { first.focus(); }, 30);
        return;
      }
      submitForm(form);
    }
  });
  document.addEventListener('input', function (ev) { if (ev.target.closest) clearError(ev.target); });
  document.addEventListener('change', function (ev) {
    var changed = ev.target.closest && ev.target.closest('form[data-ui-form]');
    if (changed) applyConditions(changed);
    if (ev.target.classList && ev.target.classList.contains('row-check')) updateBatch();
    if (ev.target.hasAttribute && ev.target.hasAttribute('data-select-all')) {
      document.querySelectorAll('.row-check').forEach(function (c) { c.checked = ev.target.checked; });
      updateBatch();
    }
  });
  // A select showing what the resource chosen in another holds (the chosen VPC's CIDR blocks).
  function followChoice(form, name, value) {
    form.querySelectorAll('[data-follows]').forEach(function (follower) {
      if (follower.getAttribute('data-follows') !== name) return;
      var all = {};
      try { all = JSON.parse(follower.getAttribute('data-follow-options') || '{}'); } catch (e) { all = {}; }
      var options = all[value] || [];
      follower.setAttribute('data-options', JSON.stringify(options));
      if (!options.length) {
        var shown = follower.querySelector('.ui-select-value');
        shown.textContent = '-';
        shown.classList.add('placeholder');
      }
      setSelectValue(follower, options.length ? options[0][0] : '');
    });
  }
  function followChoices(form) {
    form.querySelectorAll('[data-follows]').forEach(function (follower) {
      var name = follower.getAttribute('data-follows');
      var chosen = Array.prototype.find.call(form.querySelectorAll('[data-ui-select]'), function (s) {
        return s.getAttribute('data-ui-select') === name;
      });
      var input = chosen && chosen.querySelector('input[type=hidden]');
      followChoice(form, name, input ? input.value : '');
    });
  }
  document.addEventListener('ui-change', function (ev) {
    var select = ev.target;
    var within = select.closest && select.closest('form[data-ui-form]');
    var name = select.getAttribute('data-ui-select');
    if (within) {
      followChoice(within, name, ev.detail.value);
      applyConditions(within);
    }
    var formRegion = name === 'RegionId' && select.closest('form[data-region-reloads]') &&
      ev.detail.value && ev.detail.value !== document.body.getAttribute('data-region');
    if (name === 'region' || formRegion) {
      document.cookie = 'aca_console_region=' + ev.detail.value + '; path=/';
      var url = new URL(location.href);
      url.searchParams.set('region', ev.detail.value);
      url.searchParams.delete('page');
      location.href = url.toString();
    } else if (name === 'filter' && select.closest('[data-list-filter]')) {
      var next = new URL(location.href);
      next.searchParams.set('filter', ev.detail.value);
      next.searchParams.delete('page');
      location.href = next.toString();
    } else if (name === 'resourceGroup') {
      document.cookie = 'aca_console_rg=' + ev.detail.value + '; path=/';
      location.reload();
    }
  });
  window.addEventListener('resize', closePortal);
  window.addEventListener('scroll', function (ev) {
    if (openPortal && !openPortal.portal.contains(ev.target)) closePortal();
  }, true);
  window.acaConsole = { toast: toast };
})();
