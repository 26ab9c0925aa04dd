#include "store_secrets.hpp"

#include "duckdb/catalog/catalog_transaction.hpp"
#include "duckdb/main/secret/secret.hpp"
#include "duckdb/main/secret/secret_manager.hpp"

namespace moraine {

void AddS3Secret(ClientContext &context, const string &path, const string &prefix, vector<string> &options) {
	if (!StringUtil::StartsWith(StringUtil::Lower(path), "s3://")) {
		return;
	}
	auto &manager = SecretManager::Get(context);
	auto transaction = CatalogTransaction::GetSystemCatalogTransaction(context);
	auto match = manager.LookupSecret(transaction, path, "s3");
	if (!match.HasMatch()) {
		return;
	}
	auto &secret = match.GetSecret();
	auto key_value = dynamic_cast<const KeyValueSecret *>(&secret);
	if (!key_value) {
		throw InvalidInputException("moraine: the secret %s matching %s is not a key/value secret of type s3; moraine "
		                            "reads KEY_ID, SECRET, SESSION_TOKEN, REGION, ENDPOINT, URL_STYLE and USE_SSL from "
		                            "one (CREATE SECRET (TYPE s3, ...))",
		                            secret.GetName(), path);
	}
	options.push_back(prefix + "name");
	options.push_back(secret.GetName());
	for (auto &entry : key_value->secret_map) {
		if (entry.second.IsNull()) {
			continue;
		}
		options.push_back(prefix + StringUtil::Lower(entry.first));
		options.push_back(entry.second.ToString());
	}
}

} // namespace moraine
