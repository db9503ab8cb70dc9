//! Files: same-origin text fetched over HTTP (an exercise set's files) and
//! text offered as a download (exported answers, exercise skeletons).

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Fetches a same-origin text file.
pub async fn fetch_text(url: &str) -> Result<String, String> {
    let window = web_sys::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url)).await.map_err(|_| format!("cannot fetch {url}"))?;
    let response: web_sys::Response = response.dyn_into().map_err(|_| "the fetch gave no response".to_string())?;
    if !response.ok() {
        return Err(format!("HTTP {} for {url}", response.status()));
    }
    let text = JsFuture::from(response.text().map_err(|_| "no text".to_string())?)
        .await
        .map_err(|_| "cannot read the file".to_string())?;
    text.as_string().ok_or_else(|| "the file is not text".into())
}

/// Offers `text` as a file download named `name`.
pub fn download(name: &str, text: &str, mime: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let Ok(blob) = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options) else { return };
    let Ok(url) = web_sys::Url::create_object_url_with_blob(&blob) else { return };
    if let Ok(a) = document.create_element("a").and_then(|e| e.dyn_into::<web_sys::HtmlAnchorElement>().map_err(JsValue::from)) {
        a.set_href(&url);
        a.set_download(name);
        if let Some(body) = document.body() {
            let _ = body.append_child(&a);
            a.click();
            a.remove();
        }
    }
    gloo_timers::callback::Timeout::new(60_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
}
