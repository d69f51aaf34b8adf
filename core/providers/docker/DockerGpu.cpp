#include "providers/docker/DockerGpu.h"

#include <QCoreApplication>
#include <nlohmann/json.hpp>

namespace sandbar::docker {

using json = nlohmann::json;

QByteArray gpuDeviceRequests(int gpus, const QStringList &deviceIds)
{
    if (gpus == 0 && deviceIds.isEmpty())
        return {};
    json ids = nullptr; // what `docker run --gpus N` sends: null, not []
    if (!deviceIds.isEmpty()) {
        ids = json::array();
        for (const QString &id : deviceIds)
            ids.push_back(id.toStdString());
    }
    const json request{{"Driver", ""},
                       {"Count", deviceIds.isEmpty() ? (gpus < 0 ? -1 : gpus) : 0},
                       {"DeviceIDs", ids},
                       {"Capabilities", json::array({json::array({"gpu", "compute", "utility"})})},
                       {"Options", json::object()}};
    const std::string text = json::array({request}).dump();
    return QByteArray(text.data(), qsizetype(text.size()));
}

std::optional<Error> gpuDriverError(const QString &engineMessage)
{
    if (!engineMessage.contains(QLatin1String("could not select device driver")))
        return std::nullopt;
    return makeError(ErrorCode::Unsupported,
                     QCoreApplication::translate("sandbar::docker",
                                                 "This Docker engine has no NVIDIA runtime (nvidia-container-toolkit), "
                                                 "so it cannot give a session GPUs: install the NVIDIA Container "
                                                 "Toolkit on the engine's host and restart Docker, or create the "
                                                 "session without GPUs (the engine said: %1).")
                         .arg(engineMessage.trimmed()));
}

} // namespace sandbar::docker
