/**
 * Well-known brands that phishing impersonates, with the registrable domains they really send
 * from. Short names that are also common words or names (chase, apple, ups) only count in a
 * display name next to a service word (see display-name.ts).
 */
export interface Brand {
  name: string;
  /** Lower-case words that name the brand in a display name or domain label. */
  words: string[];
  domains: string[];
}

export const BRANDS: readonly Brand[] = [
  {
    name: "PayPal",
    words: ["paypal"],
    domains: ["paypal.com", "paypal.co.uk", "paypal.de", "paypal-communication.com", "paypalobjects.com"],
  },
  {
    name: "Apple",
    words: ["apple", "icloud", "itunes"],
    domains: ["apple.com", "icloud.com", "me.com", "itunes.com"],
  },
  {
    name: "Microsoft",
    words: ["microsoft", "office365", "onedrive", "sharepoint", "hotmail"],
    domains: [
      "microsoft.com",
      "outlook.com",
      "live.com",
      "office.com",
      "office365.com",
      "microsoftonline.com",
      "hotmail.com",
      "sharepoint.com",
      "onedrive.com",
      "msn.com",
      "sharepointonline.com",
      "microsoft365.com",
      "aka.ms",
      "1drv.ms",
      "azure.com",
      "windows.net",
    ],
  },
  {
    name: "Google",
    words: ["google", "gmail"],
    domains: [
      "google.com",
      "gmail.com",
      "youtube.com",
      "googlemail.com",
      "googlegroups.com",
      "withgoogle.com",
      "googleapis.com",
      "googleusercontent.com",
      "gstatic.com",
      "google-analytics.com",
      "googletagmanager.com",
      "forms.gle",
      "g.co",
    ],
  },
  {
    name: "Amazon",
    words: ["amazon"],
    domains: [
      "amazon.com",
      "amazon.co.uk",
      "amazon.de",
      "amazonses.com",
      "amazon.ca",
      "aws.com",
      "amazonaws.com",
      "media-amazon.com",
    ],
  },
  { name: "Netflix", words: ["netflix"], domains: ["netflix.com"] },
  {
    name: "Facebook",
    words: ["facebook", "meta"],
    domains: ["facebook.com", "facebookmail.com", "meta.com", "fb.com"],
  },
  {
    name: "Instagram",
    words: ["instagram"],
    domains: ["instagram.com", "mail.instagram.com", "facebookmail.com"],
  },
  { name: "LinkedIn", words: ["linkedin"], domains: ["linkedin.com"] },
  { name: "Dropbox", words: ["dropbox"], domains: ["dropbox.com", "dropboxmail.com"] },
  { name: "DocuSign", words: ["docusign"], domains: ["docusign.com", "docusign.net"] },
  { name: "Chase", words: ["chase"], domains: ["chase.com", "jpmorgan.com"] },
  { name: "Bank of America", words: ["bankofamerica", "bofa"], domains: ["bankofamerica.com", "bofa.com"] },
  { name: "Wells Fargo", words: ["wellsfargo"], domains: ["wellsfargo.com"] },
  { name: "Citibank", words: ["citibank", "citi"], domains: ["citi.com", "citibank.com"] },
  { name: "HSBC", words: ["hsbc"], domains: ["hsbc.com", "hsbc.co.uk"] },
  { name: "Barclays", words: ["barclays"], domains: ["barclays.com", "barclays.co.uk"] },
  { name: "DHL", words: ["dhl"], domains: ["dhl.com", "dhl.de"] },
  { name: "FedEx", words: ["fedex"], domains: ["fedex.com"] },
  { name: "UPS", words: ["ups"], domains: ["ups.com"] },
  { name: "USPS", words: ["usps"], domains: ["usps.com", "usps.gov"] },
  { name: "IRS", words: ["irs"], domains: ["irs.gov"] },
  { name: "Adobe", words: ["adobe"], domains: ["adobe.com"] },
  { name: "Zoom", words: ["zoom"], domains: ["zoom.us", "zoom.com", "zoomgov.com"] },
  { name: "Slack", words: ["slack"], domains: ["slack.com", "slack-edge.com"] },
  // Collaboration and e-signature tools whose notifications phishing copies.
  { name: "Webex", words: ["webex"], domains: ["webex.com", "cisco.com"] },
  { name: "Notion", words: ["notion"], domains: ["notion.so", "notion.site", "notion.com"] },
  {
    name: "Atlassian",
    words: ["atlassian", "jira", "confluence"],
    domains: ["atlassian.com", "atlassian.net"],
  },
  { name: "Asana", words: ["asana"], domains: ["asana.com"] },
  { name: "Trello", words: ["trello"], domains: ["trello.com"] },
  { name: "WeTransfer", words: ["wetransfer"], domains: ["wetransfer.com", "we.tl"] },
  { name: "Box", words: ["boxcloud"], domains: ["box.com", "boxcloud.com"] },
  {
    name: "Adobe Sign",
    words: ["echosign", "adobesign"],
    domains: ["adobe.com", "echosign.com", "adobesign.com"],
  },
  { name: "Okta", words: ["okta"], domains: ["okta.com", "oktacdn.com", "okta-emea.com"] },
  { name: "Calendly", words: ["calendly"], domains: ["calendly.com"] },
  { name: "Figma", words: ["figma"], domains: ["figma.com"] },
  { name: "Miro", words: ["miro"], domains: ["miro.com"] },
  { name: "GitHub", words: ["github"], domains: ["github.com"] },
  // Wallets and exchanges: a look-alike that gets a recovery phrase empties the wallet for good.
  { name: "Coinbase", words: ["coinbase"], domains: ["coinbase.com", "coinbase.org"] },
  { name: "Binance", words: ["binance"], domains: ["binance.com", "binance.us", "bnbchain.org"] },
  { name: "MetaMask", words: ["metamask"], domains: ["metamask.io", "consensys.io", "consensys.net"] },
  {
    name: "Ledger",
    words: ["ledger", "ledgerlive"],
    domains: ["ledger.com", "ledgerwallet.com", "ledger.fr"],
  },
  { name: "Trezor", words: ["trezor"], domains: ["trezor.io", "satoshilabs.com"] },
  { name: "Trust Wallet", words: ["trustwallet"], domains: ["trustwallet.com", "trust.com"] },
  { name: "Phantom", words: ["phantom"], domains: ["phantom.app", "phantom.com"] },
  { name: "Exodus", words: ["exodus"], domains: ["exodus.com", "exodus.io"] },
  { name: "Kraken", words: ["kraken"], domains: ["kraken.com"] },
  { name: "Crypto.com", words: ["cryptocom"], domains: ["crypto.com"] },
  { name: "Blockchain.com", words: ["blockchaincom"], domains: ["blockchain.com", "blockchain.info"] },
  {
    name: "MyEtherWallet",
    words: ["myetherwallet", "mewwallet"],
    domains: ["myetherwallet.com", "mewwallet.com"],
  },
  { name: "Uniswap", words: ["uniswap"], domains: ["uniswap.org", "uniswap.com"] },
  { name: "OpenSea", words: ["opensea"], domains: ["opensea.io"] },
  { name: "KuCoin", words: ["kucoin"], domains: ["kucoin.com"] },
  { name: "Bybit", words: ["bybit"], domains: ["bybit.com"] },
  { name: "Etherscan", words: ["etherscan"], domains: ["etherscan.io"] },
  { name: "LocalBitcoins", words: ["localbitcoins"], domains: ["localbitcoins.com"] },
  { name: "Bittrex", words: ["bittrex"], domains: ["bittrex.com"] },
  { name: "Poloniex", words: ["poloniex"], domains: ["poloniex.com"] },
  { name: "Paxful", words: ["paxful"], domains: ["paxful.com"] },
  { name: "Bitfinex", words: ["bitfinex"], domains: ["bitfinex.com"] },
  { name: "eBay", words: ["ebay"], domains: ["ebay.com", "ebay.co.uk"] },
  { name: "Walmart", words: ["walmart"], domains: ["walmart.com"] },
  { name: "Spotify", words: ["spotify"], domains: ["spotify.com"] },
  { name: "Steam", words: ["steam", "steampowered"], domains: ["steampowered.com", "steamcommunity.com"] },
  { name: "Yahoo", words: ["yahoo"], domains: ["yahoo.com", "yahoo.co.uk", "ymail.com"] },
  { name: "Twitter", words: ["twitter"], domains: ["twitter.com", "x.com"] },
  { name: "WhatsApp", words: ["whatsapp"], domains: ["whatsapp.com"] },
  { name: "Stripe", words: ["stripe"], domains: ["stripe.com"] },
  { name: "Venmo", words: ["venmo"], domains: ["venmo.com"] },
  {
    name: "American Express",
    words: ["americanexpress", "amex"],
    domains: ["americanexpress.com", "aexp.com"],
  },
  { name: "Visa", words: ["visa"], domains: ["visa.com"] },
  { name: "Mastercard", words: ["mastercard"], domains: ["mastercard.com"] },
];

/**
 * True when `registrable` is one of the brand's domains or its country variant (amazon.fr,
 * google.com.br): same name label, country-code suffix. Generic suffixes (paypal.xyz) are not.
 */
export function isBrandDomain(brand: Brand, registrable: string): boolean {
  if (brand.domains.includes(registrable)) return true;
  const [label, ...suffix] = registrable.split(".");
  const suffixText = suffix.join(".");
  const countryVariant = /^([a-z]{2}|(co|com)\.[a-z]{2})$/.test(suffixText);
  return countryVariant && brand.domains.some((d) => d.split(".")[0] === label);
}
